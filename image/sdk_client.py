"""The Azure SDK for Python (azure-data-tables) against a running Trestle: the image test's client.

    python3 image/sdk_client.py ENDPOINT write|check|all

write: creates table imagetest, upserts two entities, queries them back with a filter, deletes one.
check: finds the entity that write left (after a restart: the data outlived the container), then deletes the table.
all: write, then check. Exits non-zero with a message at the first difference.
"""

import sys

from azure.core.credentials import AzureNamedKeyCredential
from azure.data.tables import TableServiceClient, UpdateMode

ACCOUNT = "devstoreaccount1"
KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
TABLE = "imagetest"


def expect(what, actual, wanted):
    if actual != wanted:
        sys.exit(f"FAIL {what}: got {actual!r}, wanted {wanted!r}")
    print(f"ok   {what}")


def write(service):
    service.delete_table(TABLE)  # a no-op when absent
    table = service.create_table(TABLE)
    expect("table listed", TABLE in [t.name for t in service.list_tables()], True)
    table.upsert_entity({"PartitionKey": "p", "RowKey": "1", "Name": "ada", "Age": 36})
    table.upsert_entity({"PartitionKey": "p", "RowKey": "2", "Name": "alan", "Age": 41})
    table.upsert_entity({"PartitionKey": "p", "RowKey": "2", "City": "Wilmslow"}, mode=UpdateMode.MERGE)
    found = list(table.query_entities("PartitionKey eq 'p' and Age gt 40"))
    expect("query", [(e["RowKey"], e["Name"], e["City"]) for e in found], [("2", "alan", "Wilmslow")])
    table.delete_entity("p", "1")
    expect("after delete", [e["RowKey"] for e in table.list_entities()], ["2"])


def check(service):
    table = service.get_table_client(TABLE)
    entity = table.get_entity("p", "2")
    expect("entity kept", (entity["Name"], entity["Age"]), ("alan", 41))
    service.delete_table(TABLE)
    expect("table deleted", TABLE in [t.name for t in service.list_tables()], False)


def main():
    endpoint, step = sys.argv[1], sys.argv[2]
    service = TableServiceClient(endpoint=endpoint, credential=AzureNamedKeyCredential(ACCOUNT, KEY))
    if step in ("write", "all"):
        write(service)
    if step in ("check", "all"):
        check(service)


if __name__ == "__main__":
    main()
