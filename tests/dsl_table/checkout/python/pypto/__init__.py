"""A made-up miniature of PyPTO's Python sources, for the DSL table generator's golden test."""
