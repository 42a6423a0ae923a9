"""Who a member is: Google ID token verification, local sign-in and sessions (shell layer)."""
