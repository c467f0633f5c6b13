import os

import httpx

from agora_client import Client, verify_webhook

client = Client(os.environ["AGORA_URL"], api_key=os.environ["AGORA_API_KEY"])
hook = os.environ["WEBHOOK_URL"]  # your receiver; it keeps what Agora POSTs
echo = client.agents.find("Echo")
job = client.jobs.run(echo, {"text": "hello"}, webhook=hook, webhook_events_filter=["completed"])
assert job.status == "COMPLETED" and job.result == "HELLO", job
count = sum(1 for _ in client.jobs.iter())  # every page, following the signed cursors
secret = client.request("GET", "/v1/notifications/signing-secret")["data"]["secret"]
delivery = httpx.get(f"{hook}/received", params={"job": str(job.id)}, timeout=60).json()
event = verify_webhook(delivery["body"], delivery["headers"], secret)
assert event["type"] == "job.completed" and event["data"]["jobId"] == str(job.id), event
print(f"job {job.id}: {job.result}; {count} jobs; webhook {delivery['headers']['webhook-id']} ok")
