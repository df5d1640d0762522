// Shared set-up for the compatibility suite: where the server is, SDK clients, unique names, and a small
// raw-HTTP client signing with Shared Key Lite (the scheme the SDKs use) for requests the SDK cannot make.
import { createHmac, randomUUID } from "node:crypto";
import { AzureNamedKeyCredential, TableClient, TableServiceClient } from "@azure/data-tables";

const DEV_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

/** The account endpoint, e.g. http://127.0.0.1:10002/devstoreaccount1 (path style, as the emulators use). */
export const endpoint = (process.env.TRESTLE_ENDPOINT ?? "http://127.0.0.1:10002/devstoreaccount1").replace(/\/$/, "");
export const accountName = process.env.TRESTLE_ACCOUNT ?? "devstoreaccount1";
export const accountKey = process.env.TRESTLE_ACCOUNT_KEY ?? DEV_KEY;
export const connectionString =
  `DefaultEndpointsProtocol=http;AccountName=${accountName};AccountKey=${accountKey};TableEndpoint=${endpoint};`;
export const credential = new AzureNamedKeyCredential(accountName, accountKey);

/** Plain http needs this switch in the JavaScript SDK. */
export const clientOptions = { allowInsecureConnection: true };

let counter = 0;
/** A table name unique across parallel test files and repeated runs (letters and digits, starts with a letter). */
export function uniqueTableName(prefix = "t") {
  counter += 1;
  return `${prefix}${randomUUID().replace(/-/g, "").slice(0, 12)}${counter}`;
}

export function serviceClient() {
  return new TableServiceClient(endpoint, credential, clientOptions);
}

export function tableClient(tableName) {
  return new TableClient(endpoint, tableName, credential, clientOptions);
}

/** Creates a fresh table and returns its client; the caller deletes it (or leaves it to the throwaway database). */
export async function newTable(prefix = "t") {
  const client = tableClient(uniqueTableName(prefix));
  await client.createTable();
  return client;
}

/** Runs the promise and returns the RestError it rejects with; fails when it resolves. */
export async function restError(promise) {
  try {
    await promise;
  } catch (error) {
    if (error?.statusCode === undefined) {
      throw error;
    }
    return error;
  }
  throw new Error("expected the call to fail, but it succeeded");
}

/** Collects every entity of an async iterable (all pages). */
export async function all(iterable) {
  const items = [];
  for await (const item of iterable) {
    items.push(item);
  }
  return items;
}

/**
 * Sends a raw request signed with Shared Key Lite. `path` is relative to the account endpoint and sent as given
 * (the caller encodes it); returns { status, headers, text, json }.
 */
export async function raw(method, path, { headers = {}, body, sign = true } = {}) {
  const url = `${endpoint}/${path.replace(/^\//, "")}`;
  const allHeaders = {
    "x-ms-version": "2019-02-02",
    "x-ms-date": new Date().toUTCString(),
    DataServiceVersion: "3.0",
    ...headers,
  };
  if (sign) {
    allHeaders.Authorization = sharedKeyLite(url, allHeaders["x-ms-date"]);
  }
  const response = await fetch(url, { method, headers: allHeaders, body });
  const text = await response.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

function sharedKeyLite(url, date) {
  const parsed = new URL(url);
  let resource = `/${accountName}${parsed.pathname}`;
  const comp = parsed.searchParams.get("comp");
  if (comp !== null) {
    resource += `?comp=${comp}`;
  }
  const signature = createHmac("sha256", Buffer.from(accountKey, "base64"))
    .update(`${date}\n${resource}`, "utf8")
    .digest("base64");
  return `SharedKeyLite ${accountName}:${signature}`;
}

/** Builds a multipart batch body; `parts` are the inner HTTP requests as strings. */
export function batchBody(parts, { eol = "\r\n", quoteBoundary = false, changeset = true } = {}) {
  const batch = `batch_${randomUUID()}`;
  const change = `changeset_${randomUUID()}`;
  const lines = [];
  if (changeset) {
    lines.push(`--${batch}`, `Content-Type: multipart/mixed; boundary=${quoteBoundary ? `"${change}"` : change}`, "");
    for (const part of parts) {
      lines.push(`--${change}`, "Content-Type: application/http", "Content-Transfer-Encoding: binary", "", ...part.split("\n"));
    }
    lines.push(`--${change}--`);
  } else {
    for (const part of parts) {
      lines.push(`--${batch}`, "Content-Type: application/http", "Content-Transfer-Encoding: binary", "", ...part.split("\n"));
    }
  }
  lines.push(`--${batch}--`, "");
  return {
    contentType: `multipart/mixed; boundary=${quoteBoundary ? `"${batch}"` : batch}`,
    body: lines.join(eol),
  };
}

/** Posts a batch body; returns the raw response plus the HTTP status lines of its parts. */
export async function postBatch({ contentType, body }, headers = {}) {
  const response = await raw("POST", "$batch", {
    headers: { "Content-Type": contentType, Accept: "application/json;odata=minimalmetadata", ...headers },
    body,
  });
  const statuses = [...response.text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
  return { ...response, statuses };
}

/**
 * The error code of a RestError. The SDK fills `code` only for transaction failures; for other operations the
 * code is in the parsed OData error body and in the x-ms-error-code header (`details.errorCode`).
 */
export function errorCode(error) {
  return error.code ?? error.details?.odataError?.code ?? error.details?.errorCode;
}

/** Asserts the status and error code of a failed call, checking the header and body codes agree when both exist. */
export async function expectError(promise, statusCode, code) {
  const error = await restError(promise);
  const where = `${statusCode} ${code ?? ""}: got ${error.statusCode} ${errorCode(error)} ${error.message?.slice(0, 200)}`;
  if (error.statusCode !== statusCode) {
    throw new Error(`expected ${where}`);
  }
  if (code !== undefined) {
    if (errorCode(error) !== code) {
      throw new Error(`expected ${where}`);
    }
    const header = error.details?.errorCode;
    if (header !== undefined && header !== code) {
      throw new Error(`x-ms-error-code ${header} differs from body code ${code}`);
    }
  }
  return error;
}
