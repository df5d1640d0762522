#!/usr/bin/env python3
"""Deletes the tables whose names start with a prefix, on each endpoint given (the storage emulator's
well-known account and key, as compare-azurite.sh's servers use). Prints how many it deleted per endpoint.

usage: drop_tables.py PREFIX ENDPOINT [ENDPOINT ...]
       ENDPOINT: http://127.0.0.1:PORT/devstoreaccount1

Needs the Azure SDK for Python (Debian: apt-get install python3-azure).
"""
import sys

from azure.core.credentials import AzureNamedKeyCredential
from azure.data.tables import TableServiceClient

ACCOUNT = "devstoreaccount1"
KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="


def main(prefix, endpoints):
    for endpoint in endpoints:
        service = TableServiceClient(endpoint=endpoint, credential=AzureNamedKeyCredential(ACCOUNT, KEY))
        names = [t.name for t in service.list_tables() if t.name.startswith(prefix)]
        for name in names:
            service.delete_table(name)
        print(f"{endpoint}: deleted {len(names)} table(s) named {prefix}*")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
