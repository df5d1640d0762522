package dev.trestle.cli.transfer;

import dev.trestle.TableEntity;

/** Where copied or imported entities go; {@link #close()} writes what is pending. */
public interface EntitySink extends AutoCloseable {
  void add(TableEntity entity);

  /** Entities written so far. */
  long written();

  @Override
  void close();
}
