"""Tables and service operations through the Python SDK."""
import unittest

from azure.core.exceptions import ResourceExistsError, ResourceNotFoundError

from support import code_of, service_client, table_client, unique_table_name


class Tables(unittest.TestCase):
    def test_create_list_with_a_filter_and_delete(self):
        service = service_client()
        name = unique_table_name("tables")
        service.create_table(name)
        found = [t.name for t in service.query_tables("TableName eq @n", parameters={"n": name})]
        self.assertEqual(found, [name])
        service.delete_table(name)
        self.assertEqual(list(service.query_tables("TableName eq @n", parameters={"n": name})), [])

    def test_creating_an_existing_table_is_table_already_exists(self):
        client = table_client(unique_table_name("dup"))
        client.create_table()
        try:
            with self.assertRaises(ResourceExistsError) as raised:
                client.create_table()
            self.assertEqual(code_of(raised.exception), "TableAlreadyExists")
            service_client().create_table_if_not_exists(client.table_name)
        finally:
            client.delete_table()

    def test_table_names_are_case_insensitive_and_keep_their_casing(self):
        name = "Mixed" + unique_table_name("Case")
        service = service_client()
        service.create_table(name)
        try:
            with self.assertRaises(ResourceExistsError):
                service.create_table(name.lower())
            self.assertIn(name, [t.name for t in service.list_tables()])
        finally:
            service.delete_table(name)

    def test_invalid_table_names_are_refused_with_azures_error(self):
        # the SDK turns the service's 400 into ValueError only when code and message are Azure's
        for name in ["1abc", "ab", "with-dash", "a" * 64]:
            with self.assertRaises(ValueError, msg=name):
                service_client().create_table(name)

    def test_an_operation_on_a_missing_table_is_404(self):
        with self.assertRaises(ResourceNotFoundError) as raised:
            table_client(unique_table_name("missing")).create_entity({"PartitionKey": "p", "RowKey": "r"})
        self.assertEqual(code_of(raised.exception), "TableNotFound")

    def test_list_tables_pages(self):
        service = service_client()
        prefix = unique_table_name("page")
        names = [f"{prefix}{i}" for i in range(5)]
        for name in names:
            service.create_table(name)
        try:
            pages = service.query_tables(
                "TableName ge @a and TableName lt @b",
                parameters={"a": prefix, "b": prefix + "z"},
                results_per_page=2,
            ).by_page()
            self.assertEqual([len(list(page)) for page in pages], [2, 2, 1])
        finally:
            for name in names:
                service.delete_table(name)

    def test_access_policies_round_trip(self):
        from azure.data.tables import TableAccessPolicy
        import datetime

        client = table_client(unique_table_name("acl"))
        client.create_table()
        try:
            expiry = datetime.datetime(2030, 1, 1, tzinfo=datetime.timezone.utc)
            client.set_table_access_policy(
                {"reader": TableAccessPolicy(permission="r", expiry=expiry), "empty": None}
            )
            policies = client.get_table_access_policy()
            self.assertEqual(sorted(policies), ["empty", "reader"])
            self.assertEqual(policies["reader"].permission, "r")
            # as Azure answers: an identifier without a policy reads back as None
            self.assertIsNone(policies["empty"])
        finally:
            client.delete_table()

    def test_service_properties_round_trip(self):
        from azure.data.tables import TableCorsRule

        service = service_client()
        service.set_service_properties(cors=[TableCorsRule(["https://example.com"], ["GET", "PUT"])])
        try:
            cors = service.get_service_properties()["cors"]
            self.assertEqual(cors[0].allowed_origins, ["https://example.com"])
        finally:
            service.set_service_properties(cors=[])

    def test_service_stats_from_a_path_style_connection_string(self):
        # the SDK sends it to /{account}-secondary/{account}/, signed for the primary's path
        stats = service_client().get_service_stats()
        self.assertEqual(stats["geo_replication"]["status"], "live")


if __name__ == "__main__":
    unittest.main()
