// Placeholder: replaced when this target is implemented.
