"""Shared set-up for the Python compatibility suite: where the server is, SDK clients and unique names."""
import os
import uuid

from azure.core.credentials import AzureNamedKeyCredential
from azure.core.exceptions import HttpResponseError
from azure.data.tables import TableClient, TableServiceClient

DEV_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

ENDPOINT = os.environ.get("TRESTLE_ENDPOINT", "http://127.0.0.1:10002/devstoreaccount1").rstrip("/")
ACCOUNT = os.environ.get("TRESTLE_ACCOUNT", "devstoreaccount1")
ACCOUNT_KEY = os.environ.get("TRESTLE_ACCOUNT_KEY", DEV_KEY)
CONNECTION_STRING = (
    f"DefaultEndpointsProtocol=http;AccountName={ACCOUNT};AccountKey={ACCOUNT_KEY};TableEndpoint={ENDPOINT};"
)
CREDENTIAL = AzureNamedKeyCredential(ACCOUNT, ACCOUNT_KEY)


def unique_table_name(prefix="py"):
    return prefix + uuid.uuid4().hex[:16]


def service_client():
    return TableServiceClient.from_connection_string(CONNECTION_STRING)


def table_client(name):
    return TableClient.from_connection_string(CONNECTION_STRING, name)


def new_table(prefix="py"):
    client = table_client(unique_table_name(prefix))
    client.create_table()
    return client


def error_of(call, *args, **kwargs):
    """Runs the call and returns the HttpResponseError it raises; fails when it succeeds."""
    try:
        call(*args, **kwargs)
    except HttpResponseError as error:
        return error
    raise AssertionError("expected the call to fail, but it succeeded")


def code_of(error):
    """The service's error code (the x-ms-error-code header), e.g. EntityAlreadyExists."""
    return error.response.headers.get("x-ms-error-code")
