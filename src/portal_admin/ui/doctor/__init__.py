"""The connection doctor: its dialog, the service that runs the checks, and the words that
explain each step's result.
"""
