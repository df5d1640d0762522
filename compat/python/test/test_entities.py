"""Entities through the Azure Tables SDK for Python: every EDM type, Python's own types, errors."""
import datetime
import unittest
import uuid

from azure.core import MatchConditions
from azure.core.exceptions import ResourceExistsError, ResourceNotFoundError
from azure.data.tables import EdmType, EntityProperty, UpdateMode

from support import code_of, error_of, new_table


class EntityTypes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.table = new_table("types")

    @classmethod
    def tearDownClass(cls):
        cls.table.delete_table()

    def test_python_types_round_trip_with_their_edm_types(self):
        when = datetime.datetime(2024, 2, 29, 23, 59, 58, 123456, tzinfo=datetime.timezone.utc)
        guid = uuid.uuid4()
        self.table.create_entity(
            {
                "PartitionKey": "p",
                "RowKey": "python",
                "text": "héllo ☃",
                "small": 7,
                "negative": -(2**31),
                "largest32": 2**31 - 1,
                "ratio": 0.25,
                "whole": 2.0,
                "flag": True,
                "when": when,
                "id": guid,
                "blob": b"\x00\x01\xfe\xff",
            }
        )
        entity = self.table.get_entity("p", "python")
        self.assertEqual(entity["text"], "héllo ☃")
        self.assertEqual(entity["small"], 7)
        self.assertIsInstance(entity["small"], int)
        self.assertEqual(entity["negative"], -(2**31))
        self.assertEqual(entity["largest32"], 2**31 - 1)
        self.assertEqual(entity["ratio"], 0.25)
        self.assertEqual(entity["whole"], 2.0)
        self.assertIsInstance(entity["whole"], float)
        self.assertIs(entity["flag"], True)
        self.assertEqual(entity["when"], when)
        self.assertEqual(entity["id"], guid)
        self.assertIsInstance(entity["id"], uuid.UUID)
        self.assertEqual(entity["blob"], b"\x00\x01\xfe\xff")

    def test_an_int_beyond_int32_is_refused_by_the_sdk_and_int64_is_explicit(self):
        # azure-data-tables 12.4.2 maps Python's int to Int32 and refuses a larger one before sending
        with self.assertRaises(TypeError):
            self.table.create_entity({"PartitionKey": "p", "RowKey": "big", "n": 2**31})
        self.table.create_entity(
            {
                "PartitionKey": "p",
                "RowKey": "int64",
                "big": EntityProperty(2**40, EdmType.INT64),
                "max": EntityProperty(2**63 - 1, EdmType.INT64),
                "min": EntityProperty(-(2**63), EdmType.INT64),
                "smallAsInt64": EntityProperty(5, EdmType.INT64),
            }
        )
        entity = self.table.get_entity("p", "int64")
        self.assertEqual(entity["big"], EntityProperty(2**40, EdmType.INT64))
        self.assertEqual(entity["max"].value, 2**63 - 1)
        self.assertEqual(entity["min"].value, -(2**63))
        self.assertEqual(entity["smallAsInt64"], EntityProperty(5, EdmType.INT64))

    def test_explicit_edm_types_are_kept(self):
        self.table.create_entity(
            {
                "PartitionKey": "p",
                "RowKey": "explicit",
                "int32": EntityProperty(12, EdmType.INT32),
                "double": EntityProperty(3.0, EdmType.DOUBLE),
                "guid": EntityProperty("9f3e5c7a-0000-4000-8000-000000000001", EdmType.GUID),
                "date": EntityProperty("2020-01-01T00:00:00Z", EdmType.DATETIME),
                "bytes": EntityProperty(b"abc", EdmType.BINARY),
                "string": EntityProperty("12", EdmType.STRING),
            }
        )
        entity = self.table.get_entity("p", "explicit")
        self.assertEqual(entity["int32"], 12)
        self.assertEqual(entity["double"], 3.0)
        self.assertEqual(entity["guid"], uuid.UUID("9f3e5c7a-0000-4000-8000-000000000001"))
        self.assertEqual(
            entity["date"], datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc)
        )
        self.assertEqual(entity["bytes"], b"abc")
        self.assertEqual(entity["string"], "12")

    def test_datetime_keeps_seven_digits_of_the_service_value(self):
        self.table.create_entity(
            {
                "PartitionKey": "p",
                "RowKey": "ticks",
                "when": EntityProperty("2021-06-01T12:00:00.1234567Z", EdmType.DATETIME),
            }
        )
        when = self.table.get_entity("p", "ticks")["when"]
        self.assertEqual(when.tables_service_value, "2021-06-01T12:00:00.1234567Z")
        self.assertEqual(when.microsecond, 123456)

    def test_metadata_has_etag_and_timestamp(self):
        created = self.table.create_entity({"PartitionKey": "p", "RowKey": "meta", "v": 1})
        entity = self.table.get_entity("p", "meta")
        self.assertEqual(entity.metadata["etag"], created["etag"])
        self.assertTrue(entity.metadata["etag"].startswith('W/"datetime'))
        self.assertIsInstance(entity.metadata["timestamp"], datetime.datetime)

    def test_none_properties_are_not_stored(self):
        self.table.create_entity({"PartitionKey": "p", "RowKey": "none", "a": None, "b": 1})
        entity = self.table.get_entity("p", "none")
        self.assertNotIn("a", entity)
        self.assertEqual(entity["b"], 1)

    def test_keys_with_special_characters_round_trip(self):
        for key in ["it's", "a b", "100%", "a+b", "ü€😀", "x,y&z=1", ""]:
            self.table.upsert_entity({"PartitionKey": "special", "RowKey": key, "k": key})
            self.assertEqual(self.table.get_entity("special", key)["k"], key)


class EntityOperations(unittest.TestCase):
    def setUp(self):
        self.table = new_table("ops")

    def tearDown(self):
        self.table.delete_table()

    def test_create_twice_is_entity_already_exists(self):
        self.table.create_entity({"PartitionKey": "p", "RowKey": "r"})
        with self.assertRaises(ResourceExistsError) as raised:
            self.table.create_entity({"PartitionKey": "p", "RowKey": "r"})
        self.assertEqual(code_of(raised.exception), "EntityAlreadyExists")

    def test_missing_entity_is_resource_not_found(self):
        with self.assertRaises(ResourceNotFoundError) as raised:
            self.table.get_entity("p", "missing")
        self.assertEqual(code_of(raised.exception), "ResourceNotFound")

    def test_replace_drops_absent_properties_and_merge_keeps_them(self):
        self.table.create_entity({"PartitionKey": "p", "RowKey": "r", "a": 1, "b": 2})
        self.table.update_entity({"PartitionKey": "p", "RowKey": "r", "c": 3}, mode=UpdateMode.MERGE)
        self.assertEqual(
            {k: v for k, v in self.table.get_entity("p", "r").items() if len(k) == 1},
            {"a": 1, "b": 2, "c": 3},
        )
        self.table.update_entity({"PartitionKey": "p", "RowKey": "r", "d": 4}, mode=UpdateMode.REPLACE)
        self.assertEqual(
            {k: v for k, v in self.table.get_entity("p", "r").items() if len(k) == 1}, {"d": 4}
        )

    def test_conditional_update_with_a_stale_etag_is_412(self):
        self.table.create_entity({"PartitionKey": "p", "RowKey": "r", "v": 1})
        stale = self.table.get_entity("p", "r")
        fresh = self.table.update_entity({"PartitionKey": "p", "RowKey": "r", "v": 2})
        error = error_of(
            self.table.update_entity,
            {"PartitionKey": "p", "RowKey": "r", "v": 3},
            mode=UpdateMode.REPLACE,
            etag=stale.metadata["etag"],
            match_condition=MatchConditions.IfNotModified,
        )
        self.assertEqual(error.status_code, 412)
        self.assertEqual(code_of(error), "UpdateConditionNotSatisfied")
        self.table.update_entity(
            {"PartitionKey": "p", "RowKey": "r", "v": 4},
            mode=UpdateMode.REPLACE,
            etag=fresh["etag"],
            match_condition=MatchConditions.IfNotModified,
        )
        self.assertEqual(self.table.get_entity("p", "r")["v"], 4)

    def test_conditional_delete_with_a_stale_etag_is_412_then_the_current_one_deletes(self):
        created = self.table.create_entity({"PartitionKey": "p", "RowKey": "r", "v": 1})
        updated = self.table.update_entity({"PartitionKey": "p", "RowKey": "r", "v": 2})
        error = error_of(
            self.table.delete_entity,
            "p",
            "r",
            etag=created["etag"],
            match_condition=MatchConditions.IfNotModified,
        )
        self.assertEqual(error.status_code, 412)
        self.table.delete_entity(
            "p", "r", etag=updated["etag"], match_condition=MatchConditions.IfNotModified
        )
        with self.assertRaises(ResourceNotFoundError):
            self.table.get_entity("p", "r")

    def test_update_of_a_missing_entity_is_404_and_upsert_inserts(self):
        error = error_of(self.table.update_entity, {"PartitionKey": "p", "RowKey": "none"})
        self.assertEqual(error.status_code, 404)
        self.table.upsert_entity({"PartitionKey": "p", "RowKey": "none", "v": 1}, mode=UpdateMode.MERGE)
        self.table.upsert_entity({"PartitionKey": "p", "RowKey": "none", "w": 2}, mode=UpdateMode.MERGE)
        entity = self.table.get_entity("p", "none")
        self.assertEqual((entity["v"], entity["w"]), (1, 2))

    def test_every_write_gets_a_new_etag(self):
        etags = {self.table.create_entity({"PartitionKey": "p", "RowKey": "r", "v": 0})["etag"]}
        for i in range(1, 6):
            etags.add(self.table.update_entity({"PartitionKey": "p", "RowKey": "r", "v": i})["etag"])
        self.assertEqual(len(etags), 6)

    def test_limits_are_enforced(self):
        error = error_of(
            self.table.create_entity, {"PartitionKey": "p", "RowKey": "big", "s": "x" * (32 * 1024 + 1)}
        )
        self.assertEqual(error.status_code, 400)
        self.assertEqual(code_of(error), "PropertyValueTooLarge")
        error = error_of(self.table.create_entity, {"PartitionKey": "p", "RowKey": "a/b"})
        self.assertEqual(error.status_code, 400)
        too_many = {"PartitionKey": "p", "RowKey": "many"}
        too_many.update({f"p{i}": i for i in range(253)})
        self.assertEqual(code_of(error_of(self.table.create_entity, too_many)), "TooManyProperties")


if __name__ == "__main__":
    unittest.main()
