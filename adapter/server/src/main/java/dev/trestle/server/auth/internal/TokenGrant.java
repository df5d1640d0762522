package dev.trestle.server.auth.internal;

import dev.trestle.server.auth.TokenAuthentication.Permission;
import java.util.EnumSet;
import java.util.Set;

/**
 * What a Bearer token may do in one account: the permissions its grants add up to, over every
 * table. An operation it lacks the permission for is refused as Azure refuses a role that lacks the
 * data action: 403 {@code AuthorizationPermissionMismatch}.
 */
record TokenGrant(Set<Permission> permissions) implements Grant {

  static final TokenGrant EVERYTHING = new TokenGrant(EnumSet.allOf(Permission.class));

  TokenGrant {
    permissions = Set.copyOf(permissions);
  }

  static Permission needed(Operation operation) {
    return switch (operation) {
      case QUERY_TABLES, QUERY_ENTITIES, GET_ENTITY, GET_SERVICE_PROPERTIES, GET_SERVICE_STATS ->
          Permission.READ;
      case INSERT_ENTITY,
          UPDATE_ENTITY,
          MERGE_ENTITY,
          INSERT_OR_REPLACE_ENTITY,
          INSERT_OR_MERGE_ENTITY ->
          Permission.WRITE;
      case DELETE_ENTITY -> Permission.DELETE;
      case CREATE_TABLE, DELETE_TABLE, GET_TABLE_ACL, SET_TABLE_ACL, SET_SERVICE_PROPERTIES ->
          Permission.MANAGE;
    };
  }

  @Override
  public void authorize(Operation operation, String tableName) {
    if (!permissions.contains(needed(operation))) {
      throw AuthFailures.permissionMismatch();
    }
  }
}
