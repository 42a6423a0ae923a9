"""The coach: advice for one seat computed only from that seat's view, and the review of played hands."""
