class BaseKVSender:
    """What every sender derives from."""
