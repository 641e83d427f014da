"""Syntax the parser handles itself: a loop builds no operator."""


def loop(stop, step=1):
    return range(0, stop, step)
