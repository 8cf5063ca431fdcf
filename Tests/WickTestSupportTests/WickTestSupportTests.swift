// WickTestSupport's own tests: the fault server and the server launchers.
