"""Loading and validating card_data: YAML with line marks, frozen model, problem lists."""
