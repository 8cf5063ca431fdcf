// wick-test-servers: starts the real test servers for Scripts/test and Scripts/demo.
print("wick-test-servers")
