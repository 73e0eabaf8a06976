class Manager:
    def ranks(self):
        return [1, 2,, 3]  # want: SGL000 "unexpected `,`"
