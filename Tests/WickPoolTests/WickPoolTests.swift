// WickPool's state-machine tests arrive with the transport issue.
