"""The dispatcher: claims queued jobs (the jobs table is the queue), calls agents."""
