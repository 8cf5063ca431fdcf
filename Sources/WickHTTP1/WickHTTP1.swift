// WickHTTP1: the sans-I/O HTTP/1.1 codec. Its contents arrive with the codec issue.
