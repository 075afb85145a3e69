"""moontable's PC side: the `moontable` command and what it drives."""
