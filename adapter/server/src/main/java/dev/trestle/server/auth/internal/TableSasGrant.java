package dev.trestle.server.auth.internal;

import java.util.Optional;

/**
 * What a table SAS allows: entity operations on its one table, by permission letter (r query, a
 * add, u update, d delete; insert-or-replace and insert-or-merge need both a and u), inside its key
 * range.
 */
record TableSasGrant(String tableName, String permissions, KeyRange range) implements Grant {

  @Override
  public void authorize(Operation operation, String table) {
    String needed =
        switch (operation) {
          case QUERY_ENTITIES, GET_ENTITY -> "r";
          case INSERT_ENTITY -> "a";
          case UPDATE_ENTITY, MERGE_ENTITY -> "u";
          case INSERT_OR_REPLACE_ENTITY, INSERT_OR_MERGE_ENTITY -> "au";
          case DELETE_ENTITY -> "d";
          // Table, ACL and service operations are beyond any table SAS.
          case QUERY_TABLES,
              CREATE_TABLE,
              DELETE_TABLE,
              GET_TABLE_ACL,
              SET_TABLE_ACL,
              GET_SERVICE_PROPERTIES,
              SET_SERVICE_PROPERTIES,
              GET_SERVICE_STATS ->
              null;
        };
    if (needed == null) {
      throw AuthFailures.permissionMismatch();
    }
    if (table == null || !table.equalsIgnoreCase(tableName)) {
      throw AuthFailures.authorizationFailure();
    }
    if (!needed.chars().allMatch(c -> permissions.indexOf(c) >= 0)) {
      throw AuthFailures.permissionMismatch();
    }
  }

  @Override
  public void authorizeEntity(
      Operation operation, String table, String partitionKey, String rowKey) {
    authorize(operation, table);
    if (range != null && !range.contains(partitionKey, rowKey)) {
      throw AuthFailures.authorizationFailure();
    }
  }

  @Override
  public Optional<KeyRange> keyRange() {
    return Optional.ofNullable(range);
  }
}
