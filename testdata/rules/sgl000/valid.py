# A file that parses: no finding.
class Sender:
    def send(self, req, dst):
        """Send # want: SGL000 in a docstring is not an expectation."""
        return self.engine.transfer(req.room, dst)
