// WickTestSupport: test doubles and real-server launchers for tests, Fuzz/ and Benchmarks/.
