"""Files: uploads a workspace holds, jobs' input files (signed URLs for agents) and the output
files agents return, fetched and kept; one storage interface (local directory or S3)."""
