"""Speed figures, each with its own command (`python -m benchmarks.<name>`); never timed asserts."""
