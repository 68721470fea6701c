"""The site: which pages a project has (the plan), and what each page depends on (fingerprints)."""
