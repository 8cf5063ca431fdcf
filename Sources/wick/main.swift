// The wick command: a small curl-like front end used by Scripts/demo.
print("wick: the transport has not landed yet")
