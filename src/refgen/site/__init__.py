"""The site: which pages a project has, what each one shows, and what each depends on."""
