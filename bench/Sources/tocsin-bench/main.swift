print("tocsin-bench: not written yet")
