package dev.trestle.cli;

import java.nio.file.Path;

/** The file formats of export and import: NDJSON (the default) and Storage Explorer's CSV. */
enum FileFormat {
  NDJSON,
  CSV;

  /** The format asked for, else the one the file's extension names (.csv), else NDJSON. */
  static FileFormat of(FileFormat given, Path file) {
    if (given != null) {
      return given;
    }
    return dev.trestle.cli.transfer.CsvEnd.named(file) ? CSV : NDJSON;
  }
}
