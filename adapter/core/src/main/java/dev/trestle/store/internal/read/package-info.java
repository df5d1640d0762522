/** Point reads, table listing and query pages (the key-range chunked scan). Private API. */
package dev.trestle.store.internal.read;
