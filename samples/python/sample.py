"""The Azure Tables SDK for Python against Trestle, unchanged: only the connection string points at it.

Run:  TRESTLE_CONNECTION_STRING="..." /usr/bin/python3 sample.py   (default: ./trestle serve on 127.0.0.1:10002)
The SDK: Debian's python3-azure (apt-get install python3-azure) or pip install azure-data-tables.
"""
import datetime
import json
import os
import time
import uuid

from azure.core import MatchConditions
from azure.core.exceptions import ResourceModifiedError
from azure.data.tables import EdmType, EntityProperty, TableServiceClient, UpdateMode

DEV_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
connection_string = os.environ.get(
    "TRESTLE_CONNECTION_STRING",
    f"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={DEV_KEY};"
    "TableEndpoint=http://127.0.0.1:10002/devstoreaccount1;",
)

service = TableServiceClient.from_connection_string(connection_string)
table_name = f"pysample{int(time.time() * 1000)}"
orders = service.create_table(table_name)
customer = "customer-42"
try:
    # Insert one entity: a Python int is an Int32; Int64 is asked for with EntityProperty.
    orders.create_entity(
        {
            "PartitionKey": customer,
            "RowKey": "order-000",
            "product": "Trestle",
            "quantity": 3,
            "shipped": False,
            "placed": datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc),
            "trackingId": uuid.UUID("6f1c2a9e-0000-4000-8000-000000000042"),
            "totalMicros": EntityProperty(12_000_000_000, EdmType.INT64),
        }
    )

    # A batch (entity-group transaction): ten more orders of the same partition, all or nothing.
    orders.submit_transaction(
        [
            (
                "create",
                {"PartitionKey": customer, "RowKey": f"order-{i:03d}", "product": "Trestle", "quantity": i, "shipped": False},
            )
            for i in range(1, 11)
        ]
    )

    # A parameterised query, four entities per page; the SDK follows the continuation tokens.
    pages = 0
    matched = 0
    query = orders.query_entities(
        "PartitionKey eq @customer and quantity ge @least",
        parameters={"customer": customer, "least": 2},
        results_per_page=4,
    )
    for page in query.by_page():
        pages += 1
        matched += len(list(page))

    # Optimistic concurrency: an update with a stale ETag is refused with 412.
    stale = orders.get_entity(customer, "order-000")
    fresh = orders.get_entity(customer, "order-000")
    orders.update_entity(
        {**fresh, "shipped": True},
        mode=UpdateMode.REPLACE,
        etag=fresh.metadata["etag"],
        match_condition=MatchConditions.IfNotModified,
    )
    stale_rejected = False
    try:
        orders.update_entity(
            {**stale, "quantity": 99},
            mode=UpdateMode.REPLACE,
            etag=stale.metadata["etag"],
            match_condition=MatchConditions.IfNotModified,
        )
    except ResourceModifiedError as error:
        stale_rejected = error.status_code == 412
    final = orders.get_entity(customer, "order-000")

    summary = {
        "inserted": 11,
        "matched": matched,
        "pages": pages,
        "staleRejected": stale_rejected,
        "shipped": final["shipped"],
        "quantity": final["quantity"],
        "totalMicros": final["totalMicros"].value,
    }
    print(f"Queried {matched} orders in {pages} pages; stale update rejected: {stale_rejected}")
    print(json.dumps(summary, separators=(",", ":")))
finally:
    service.delete_table(table_name)
