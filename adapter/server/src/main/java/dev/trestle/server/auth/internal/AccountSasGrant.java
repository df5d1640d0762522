package dev.trestle.server.auth.internal;

/**
 * What an account SAS allows: each operation needs a resource type in {@code srt} (s service, c
 * table, o entity) and a permission in {@code sp}, per the service's account SAS table.
 */
record AccountSasGrant(String resourceTypes, String permissions) implements Grant {

  @Override
  public void authorize(Operation operation, String tableName) {
    Requirement requirement = Requirement.of(operation);
    if (resourceTypes.indexOf(requirement.resourceType()) < 0) {
      throw AuthFailures.resourceTypeMismatch();
    }
    if (!requirement.isMetBy(permissions)) {
      throw AuthFailures.permissionMismatch();
    }
  }

  /**
   * @param anyOf one of these letters suffices (empty: no letter does, the operation needs Shared
   *     Key)
   * @param allOf every one of these letters is needed
   */
  record Requirement(char resourceType, String anyOf, String allOf) {
    static Requirement of(Operation operation) {
      return switch (operation) {
        case GET_SERVICE_PROPERTIES, GET_SERVICE_STATS -> new Requirement('s', "r", "");
        case SET_SERVICE_PROPERTIES -> new Requirement('s', "w", "");
        case QUERY_TABLES -> new Requirement('c', "l", "");
        case CREATE_TABLE -> new Requirement('c', "acw", "");
        case DELETE_TABLE -> new Requirement('c', "d", "");
        // Only the account owner reads or writes stored access policies.
        case GET_TABLE_ACL, SET_TABLE_ACL -> new Requirement('c', "", "");
        case QUERY_ENTITIES, GET_ENTITY -> new Requirement('o', "r", "");
        case INSERT_ENTITY -> new Requirement('o', "a", "");
        case UPDATE_ENTITY, MERGE_ENTITY -> new Requirement('o', "u", "");
        case INSERT_OR_REPLACE_ENTITY, INSERT_OR_MERGE_ENTITY -> new Requirement('o', "", "au");
        case DELETE_ENTITY -> new Requirement('o', "d", "");
      };
    }

    boolean isMetBy(String permissions) {
      if (!allOf.isEmpty()) {
        return allOf.chars().allMatch(c -> permissions.indexOf(c) >= 0);
      }
      return anyOf.chars().anyMatch(c -> permissions.indexOf(c) >= 0);
    }
  }
}
