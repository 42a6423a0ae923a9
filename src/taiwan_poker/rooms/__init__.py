"""Member rooms (shell layer): the room service over the store and the rules engine, real-time fan-out."""
