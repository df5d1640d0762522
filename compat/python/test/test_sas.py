"""Shared access signatures made by the Python SDK: table SAS, account SAS, ranges, policies, expiry."""
import datetime
import unittest

from azure.core.credentials import AzureSasCredential
from azure.core.exceptions import ClientAuthenticationError, HttpResponseError
from azure.data.tables import (
    AccountSasPermissions,
    ResourceTypes,
    TableAccessPolicy,
    TableClient,
    TableSasPermissions,
    TableServiceClient,
    generate_account_sas,
    generate_table_sas,
)

from support import CREDENTIAL, ENDPOINT, code_of, new_table, unique_table_name


def in_hours(hours):
    return datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=hours)


class TableSas(unittest.TestCase):
    def setUp(self):
        self.table = new_table("sas")
        self.table.create_entity({"PartitionKey": "a", "RowKey": "1", "v": 1})
        self.table.create_entity({"PartitionKey": "m", "RowKey": "1", "v": 2})
        self.table.create_entity({"PartitionKey": "z", "RowKey": "1", "v": 3})

    def tearDown(self):
        self.table.delete_table()

    def client(self, token):
        return TableClient(ENDPOINT, self.table.table_name, credential=AzureSasCredential(token))

    def test_a_read_only_sas_reads_but_cannot_write(self):
        token = generate_table_sas(
            CREDENTIAL, self.table.table_name, permission=TableSasPermissions(read=True), expiry=in_hours(1)
        )
        reader = self.client(token)
        self.assertEqual(len(list(reader.list_entities())), 3)
        with self.assertRaises(HttpResponseError) as raised:
            reader.create_entity({"PartitionKey": "a", "RowKey": "2"})
        self.assertEqual(raised.exception.status_code, 403)
        self.assertEqual(code_of(raised.exception), "AuthorizationPermissionMismatch")

    def test_add_update_and_delete_permissions_allow_their_operations(self):
        token = generate_table_sas(
            CREDENTIAL,
            self.table.table_name,
            permission=TableSasPermissions(read=True, add=True, update=True, delete=True),
            expiry=in_hours(1),
        )
        writer = self.client(token)
        writer.create_entity({"PartitionKey": "a", "RowKey": "2"})
        writer.upsert_entity({"PartitionKey": "a", "RowKey": "2", "v": 9})
        writer.delete_entity("a", "2")
        self.assertEqual(len(list(writer.list_entities())), 3)

    def test_a_partition_range_limits_what_is_seen_and_written(self):
        token = generate_table_sas(
            CREDENTIAL,
            self.table.table_name,
            permission=TableSasPermissions(read=True, add=True),
            expiry=in_hours(1),
            start_pk="b",
            end_pk="n",
        )
        ranged = self.client(token)
        self.assertEqual([e["PartitionKey"] for e in ranged.list_entities()], ["m"])
        with self.assertRaises(HttpResponseError) as raised:
            ranged.create_entity({"PartitionKey": "z", "RowKey": "2"})
        self.assertEqual(raised.exception.status_code, 403)

    def test_a_sas_bound_to_a_stored_policy_takes_its_permissions(self):
        self.table.set_table_access_policy(
            {"readers": TableAccessPolicy(permission="r", expiry=in_hours(1), start=in_hours(-1))}
        )
        token = generate_table_sas(CREDENTIAL, self.table.table_name, policy_id="readers")
        reader = self.client(token)
        self.assertEqual(len(list(reader.list_entities())), 3)
        with self.assertRaises(HttpResponseError):
            reader.create_entity({"PartitionKey": "a", "RowKey": "3"})

    def test_an_expired_sas_is_refused(self):
        token = generate_table_sas(
            CREDENTIAL, self.table.table_name, permission=TableSasPermissions(read=True), expiry=in_hours(-1)
        )
        with self.assertRaises(ClientAuthenticationError) as raised:
            list(self.client(token).list_entities())
        self.assertEqual(code_of(raised.exception), "AuthenticationFailed")

    def test_a_table_sas_is_for_its_own_table_only(self):
        other = new_table("other")
        try:
            token = generate_table_sas(
                CREDENTIAL, self.table.table_name, permission=TableSasPermissions(read=True), expiry=in_hours(1)
            )
            with self.assertRaises(HttpResponseError) as raised:
                list(TableClient(ENDPOINT, other.table_name, credential=AzureSasCredential(token)).list_entities())
            self.assertEqual(raised.exception.status_code, 403)
        finally:
            other.delete_table()


class AccountSas(unittest.TestCase):
    def test_an_account_sas_creates_lists_and_deletes_tables(self):
        token = generate_account_sas(
            CREDENTIAL,
            # 12.4.2's ResourceTypes has no container flag, which creating a table needs
            resource_types=ResourceTypes.from_string("sco"),
            permission=AccountSasPermissions(read=True, write=True, delete=True, list=True, add=True),
            expiry=in_hours(1),
        )
        service = TableServiceClient(ENDPOINT, credential=AzureSasCredential(token))
        name = unique_table_name("acctsas")
        table = service.create_table(name)
        table.create_entity({"PartitionKey": "p", "RowKey": "r"})
        self.assertIn(name, [t.name for t in service.list_tables()])
        service.delete_table(name)

    def test_an_account_sas_without_the_resource_type_is_refused(self):
        token = generate_account_sas(
            CREDENTIAL,
            resource_types=ResourceTypes(service=True, object=True),
            permission=AccountSasPermissions(read=True, write=True, list=True, add=True),
            expiry=in_hours(1),
        )
        service = TableServiceClient(ENDPOINT, credential=AzureSasCredential(token))
        with self.assertRaises(HttpResponseError) as raised:
            service.create_table(unique_table_name("nocontainer"))
        self.assertEqual(raised.exception.status_code, 403)
        self.assertEqual(code_of(raised.exception), "AuthorizationResourceTypeMismatch")


if __name__ == "__main__":
    unittest.main()
