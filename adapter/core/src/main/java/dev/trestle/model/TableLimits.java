package dev.trestle.model;

import java.time.Instant;
import java.util.regex.Pattern;

/** The Table service's documented limits, in the units the service counts them. */
public final class TableLimits {
  private TableLimits() {}

  /**
   * The {@code x-ms-version} whose behaviour (these limits included) Trestle serves: any later
   * version gets it too, and a response to a request naming none says this one.
   */
  public static final String API_VERSION = "2019-02-02";

  /**
   * The newest {@code x-ms-version} Trestle knows (the newest Azure Storage service version when
   * this was written). A request naming a later one is refused with 400 {@code InvalidHeaderValue},
   * as Azure and Azurite refuse versions they do not know, unless the server skips the check.
   */
  public static final String NEWEST_API_VERSION = "2026-06-06";

  /** Storage account names: 3 to 24 lower-case letters and digits. */
  public static final Pattern ACCOUNT_NAME = Pattern.compile("[a-z0-9]{3,24}");

  public static final int MIN_TABLE_NAME_LENGTH = 3;
  public static final int MAX_TABLE_NAME_LENGTH = 63;

  /** PartitionKey and RowKey hold at most 1 KiB each, counted as UTF-16: 512 code units. */
  public static final int MAX_KEY_LENGTH = 512;

  /** Properties per entity, counting PartitionKey, RowKey and Timestamp. */
  public static final int MAX_PROPERTIES = 255;

  public static final int SYSTEM_PROPERTY_COUNT = 3;
  public static final int MAX_USER_PROPERTIES = MAX_PROPERTIES - SYSTEM_PROPERTY_COUNT;

  public static final int MAX_PROPERTY_NAME_LENGTH = 255;

  /** 64 KiB of UTF-16: 32,768 code units. */
  public static final int MAX_STRING_LENGTH = 32 * 1024;

  public static final int MAX_BINARY_LENGTH = 64 * 1024;

  /** Measured with {@link EntitySize}. */
  public static final int MAX_ENTITY_SIZE = 1024 * 1024;

  public static final int MAX_BATCH_OPERATIONS = 100;

  /** The body of a {@code $batch}; no other request body may be larger either. */
  public static final int MAX_BATCH_BYTES = 4 * 1024 * 1024;

  /**
   * Entities or tables per page of a query: the most a {@code $top} may ask for, and the default.
   */
  public static final int MAX_PAGE_SIZE = 1000;

  /** Discrete comparisons in one {@code $filter}. */
  public static final int MAX_FILTER_COMPARISONS = 15;

  /**
   * The range of Edm.DateTime: .NET DateTime from the Windows file-time epoch to the end of year
   * 9999.
   */
  public static final Instant MIN_DATE_TIME = Instant.parse("1601-01-01T00:00:00Z");

  public static final Instant MAX_DATE_TIME = Instant.parse("9999-12-31T23:59:59.9999999Z");
}
