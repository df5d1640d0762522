/**
 * The Table API of Trestle: {@link dev.trestle.TableService} (built with {@link
 * dev.trestle.TableServiceBuilder}) and {@link dev.trestle.TableClient}, entities and their typed
 * values, queries and pages, and the one exception, {@link dev.trestle.TableException}, carrying an
 * Azure {@link dev.trestle.TableErrorCode}.
 */
package dev.trestle;
