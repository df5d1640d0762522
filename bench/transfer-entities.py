#!/usr/bin/env python3
"""Writes N entities (default 1,000,000) as NDJSON for `trestle import`: partitions of 100, each entity
with all 8 EDM types (String, Int32, Int64 beyond 2^53, Double, Boolean, DateTime with 7 digits, Guid,
Binary) and a Timestamp, about 680 bytes a line. Deterministic: the same N gives the same file.
Usage: bench/transfer-entities.py [N] > entities.ndjson"""
import base64, random, sys, uuid

n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
rnd = random.Random(15)
out = sys.stdout
words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliett"]
for i in range(n):
    p, r = divmod(i, 100)
    seconds = 1_700_000_000 + i
    day = seconds // 86400
    # civil date from days since 1970 (Howard Hinnant's algorithm), so no datetime per line
    z = day + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    y += m <= 2
    s = seconds % 86400
    stamp = "%04d-%02d-%02dT%02d:%02d:%02d" % (y, m, d, s // 3600, s // 60 % 60, s % 60)
    text = " ".join(rnd.choice(words) for _ in range(30))
    out.write(
        '{"PartitionKey":"p%06d","RowKey":"r%03d","Timestamp":"%s.%07dZ",'
        '"Name":"%s \\u00e9\\ud83d\\ude00","Count":%d,'
        '"Big":"%d","Big@odata.type":"Edm.Int64",'
        '"Price":%r,"Price@odata.type":"Edm.Double",'
        '"Active":%s,'
        '"When":"%s.%07dZ","When@odata.type":"Edm.DateTime",'
        '"Id":"%s","Id@odata.type":"Edm.Guid",'
        '"Blob":"%s","Blob@odata.type":"Edm.Binary"}\n'
        % (p, r, stamp, i % 10_000_000, text, rnd.randint(-2**31, 2**31 - 1),
           2**53 + rnd.randint(0, 2**62), rnd.random() * 1e6, "true" if i % 2 else "false",
           stamp, rnd.randint(0, 9_999_999), uuid.UUID(int=rnd.getrandbits(128)),
           base64.b64encode(rnd.getrandbits(256).to_bytes(32, "big")).decode()))
