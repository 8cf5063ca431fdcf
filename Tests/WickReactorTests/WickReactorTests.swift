// WickReactor's tests arrive with the reactor issue.
