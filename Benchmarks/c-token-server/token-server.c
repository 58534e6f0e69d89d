// The fastest competitor of `fleetauth-bench token-server`: a minimal C token server.
//
// It does exactly what Benchmarks/node/token-server.mjs does, from the same fixture file, with
// the same checks in the same order and the same answers: `GET /v1/tokens/driver/{vehicleId}`
// with a bearer session token whose SHA-256 (hex) names an unexpired session of a driver account
// assigned to the (percent-decoded) vehicle gets a fresh RS256 token signed with the driver key
// (`kid` = private_key_id, `iss` = `sub` = client_email, Fleet Engine's `aud`, `iat`, `exp` an
// hour later, `authorization.vehicleid`), answered as
// {"expiresAt":…,"expiresInSeconds":…,"issuedAt":…,"token":"…"}; anything else gets Node's
// Google-shaped JSON error.
//
// Built to be as fast as two cores allow: one worker thread per core, each with its own epoll
// loop (level-triggered, non-blocking sockets) on its own SO_REUSEPORT listening socket, so the
// kernel spreads connections and the threads share nothing but read-only tables (hand-written
// open addressing). Each thread signs inline with its own copy of the key (OpenSSL 3's
// EVP_DigestSign, RSA PKCS#1 v1.5 with SHA-256, from a context set up once). Pipelined requests
// are answered in order, in one write; a request head over 16 KiB gets 431 and the connection
// closed. Chunked request bodies are refused (400); idle connections are kept open.
//
// With --record FILE it also keeps FleetAuth's record of tokens: each token's record (FleetAuth's
// columns and indexes, in an SQLite file in WAL mode, synchronous=NORMAL, checkpointed every
// 10,000 pages as FleetAuth's) is written before its answer goes out. One writer thread commits
// all the records that wait in one transaction (a group commit) with a statement prepared once,
// then hands each answer back to the worker
// that holds its connection (an eventfd per worker, written once per batch). The connection
// reads no further request meanwhile. Refusals are not recorded (the bench makes none).
//
// Usage: token-server FIXTURES.json [--threads N] [--port N] [--record FILE]
//   FIXTURES.json: the file token-server.mjs reads (written by the bench).
//   --threads: worker threads (default: the online CPUs); --port: 0 (default) picks a free one.
// Prints "listening PORT" once it accepts connections on 127.0.0.1; exits on SIGTERM or SIGINT.
// Build with Benchmarks/c-token-server/build.sh.
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/sha.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <time.h>
#include <unistd.h>

#define MAX_HEAD 16384      // the largest request head, as Node's default
#define MAX_PENDING 65536   // answers held for a slow reader before reading more of its requests
#define LIFETIME 3600
static const char AUDIENCE[] = "https://fleetengine.googleapis.com/", PREFIX[] = "/v1/tokens/driver/";

static void die(const char *what) {
    fprintf(stderr, "token-server: %s\n", what);
    exit(1);
}

// ---- Growable byte buffers ----

typedef struct { char *p; size_t len, cap; } Buf;

/// Room for `n` more bytes.
static void reserve(Buf *b, size_t n) {
    if (b->len + n <= b->cap) return;
    b->cap = (b->len + n) * 2;
    if (!(b->p = realloc(b->p, b->cap))) die("out of memory");
}

static void put(Buf *b, const void *s, size_t n) {
    reserve(b, n);
    memcpy(b->p + b->len, s, n);
    b->len += n;
}

static void put_text(Buf *b, const char *s) {
    put(b, s, strlen(s));
}

/// printf onto the buffer.
__attribute__((format(printf, 2, 3)))
static void putf(Buf *b, const char *format, ...) {
    va_list args;
    va_start(args, format);
    int n = vsnprintf(NULL, 0, format, args);
    va_end(args);
    reserve(b, (size_t)n + 1);
    va_start(args, format);
    vsnprintf(b->p + b->len, (size_t)n + 1, format, args);
    va_end(args);
    b->len += (size_t)n;
}

/// `s` as a JSON string, escaped as JSON.stringify escapes.
static void put_json(Buf *b, const char *s) {
    put(b, "\"", 1);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        const char *short_escape = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\b' ? "\\b" : c == '\f' ? "\\f"
            : c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : NULL;
        if (short_escape) put(b, short_escape, 2);
        else if (c < 0x20) putf(b, "\\u%04x", c);
        else put(b, s, 1);
    }
    put(b, "\"", 1);
}

/// `data` in base64url, unpadded.
static void put_base64url(Buf *b, const void *data, size_t n) {
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const unsigned char *s = data;
    reserve(b, n / 3 * 4 + 4);
    char *o = b->p + b->len;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)s[i] << 16 | (i + 1 < n ? s[i + 1] : 0) << 8 | (i + 2 < n ? s[i + 2] : 0);
        size_t chars = n - i >= 3 ? 4 : n - i + 1;
        for (size_t k = 0; k < chars; k++) *o++ = digits[v >> (18 - 6 * k) & 63];
    }
    b->len = (size_t)(o - b->p);
}

// ---- Hash tables: open addressing, linear probing, string keys ----

typedef struct { char *key, *text; long long number; } Entry;
typedef struct { Entry *slots; size_t mask, count; } Table;

/// `key`'s slot, or the empty one where it would go.
static Entry *slot(const Table *t, const char *key) {
    uint64_t h = 1469598103934665603u;  // FNV-1a
    for (const char *s = key; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211u;
    for (size_t i = h & t->mask;; i = (i + 1) & t->mask)
        if (!t->slots[i].key || !strcmp(t->slots[i].key, key)) return &t->slots[i];
}

static const Entry *lookup(const Table *t, const char *key) {
    const Entry *e = t->slots ? slot(t, key) : NULL;
    return e && e->key ? e : NULL;
}

/// Sets `key`'s entry (a later one replaces an earlier one, as in a Map), keeping the table at most half full.
static void insert(Table *t, const char *key, const char *text, long long number) {
    if (2 * (t->count + 1) > (t->slots ? t->mask + 1 : 0)) {
        Table grown = { calloc(t->slots ? 2 * (t->mask + 1) : 16, sizeof(Entry)), t->slots ? 2 * t->mask + 1 : 15, t->count };
        if (!grown.slots) die("out of memory");
        for (size_t i = 0; t->slots && i <= t->mask; i++)
            if (t->slots[i].key) *slot(&grown, t->slots[i].key) = t->slots[i];
        free(t->slots);
        *t = grown;
    }
    Entry *e = slot(t, key);
    if (!e->key) t->count++, e->key = strdup(key);
    free(e->text);
    e->text = strdup(text);
    e->number = number;
}

// ---- The fixtures: a scanner for their known JSON shape ----

typedef struct { const char *p; bool ok; } Scanner;

/// Whether `c` comes next (after white space), then stepped over.
static bool eat(Scanner *s, char c) {
    while (isspace((unsigned char)*s->p)) s->p++;
    if (*s->p != c) return false;
    s->p++;
    return true;
}

static void expect(Scanner *s, char c) {
    if (!eat(s, c)) s->ok = false;
}

/// Whether the object or array being walked (its opening bracket eaten) has another member.
static bool more(Scanner *s, char close, int *seen) {
    if (!s->ok || eat(s, close)) return false;
    if ((*seen)++) expect(s, ',');
    return s->ok;
}

static int hex_digit(int c) {
    return c >= '0' && c <= '9' ? c - '0' : (c | 32) >= 'a' && (c | 32) <= 'f' ? (c | 32) - 'a' + 10 : -1;
}

static unsigned hex4(Scanner *s) {
    unsigned v = 0;
    for (int i = 0; i < 4; i++, s->p++) {
        int d = hex_digit(*s->p);
        if (d < 0) return s->ok = false, 0;
        v = v * 16 + (unsigned)d;
    }
    return v;
}

/// A JSON string into `out` (UTF-8, NUL-terminated, at most `cap` bytes), or skipped when `out` is NULL.
static void string(Scanner *s, char *out, size_t cap) {
    size_t n = 0;
    if (!eat(s, '"')) s->ok = false;
    while (s->ok && *s->p != '"') {
        if (!*s->p) { s->ok = false; break; }
        unsigned c = (unsigned char)*s->p++;
        bool escaped = c == '\\';
        if (escaped) {
            const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t", *known = *s->p ? strchr(from, *s->p) : NULL;
            if (known) c = (unsigned char)to[known - from], s->p++;
            else if (*s->p == 'u') s->p++, c = hex4(s);  // the fixtures escape only control characters this way
            else { s->ok = false; break; }
        }
        if (!out) continue;
        if (n + 4 > cap) { s->ok = false; break; }
        if (c < 0x80 || !escaped) out[n++] = (char)c;
        else if (c < 0x800) out[n++] = (char)(0xC0 | c >> 6), out[n++] = (char)(0x80 | (c & 63));
        else out[n++] = (char)(0xE0 | c >> 12), out[n++] = (char)(0x80 | (c >> 6 & 63)), out[n++] = (char)(0x80 | (c & 63));
    }
    if (s->ok) s->p++;
    if (out) out[n] = 0;
}

/// A JSON integer.
static long long integer(Scanner *s) {
    char *end;
    errno = 0;
    long long v = strtoll(s->p, &end, 10);
    if (end == s->p || errno) s->ok = false;
    s->p = end;
    return v;
}

/// A member of an object that `object` keeps: a string into `text`, or an integer into `number`.
typedef struct { const char *name; char *text; size_t cap; long long *number; } Field;

/// Walks an object, keeping `fields`; any other member must be a string (as in the key file).
static void object(Scanner *s, const Field *fields, size_t count) {
    char name[64];
    expect(s, '{');
    for (int seen = 0; more(s, '}', &seen);) {
        string(s, name, sizeof name);
        expect(s, ':');
        const Field *f = fields;
        while (f < fields + count && strcmp(f->name, name)) f++;
        if (f == fields + count) string(s, NULL, 0);
        else if (f->text) string(s, f->text, f->cap);
        else *f->number = integer(s);
    }
}

/// The whole file, NUL-terminated.
static char *read_file(const char *path) {
    FILE *file = fopen(path, "rb");
    Buf b = { 0 };
    char chunk[65536];
    for (size_t n; file && (n = fread(chunk, 1, sizeof chunk, file)) > 0;) put(&b, chunk, n);
    if (!file || ferror(file)) die("cannot read a fixture file");
    fclose(file);
    put(&b, "", 1);
    return b.p;
}

static Table roles, sessions, assignments;  // username → role; token hash → username, expiresAt; "user|kind|id"
static char private_key[16384], client_email[256], key_id[256];
static Buf encoded_header;

/// Reads the key file: the PEM, the email, and the token header with the key id.
static void load_key(const char *path) {
    char *text = read_file(path);
    Scanner s = { text, true };
    Field fields[] = { { "private_key", private_key, sizeof private_key, NULL }, { "private_key_id", key_id, sizeof key_id, NULL },
                       { "client_email", client_email, sizeof client_email, NULL } };
    object(&s, fields, 3);
    if (!s.ok || !*private_key || !*client_email) die("the key file is not a service-account key");
    Buf header = { 0 };
    put_text(&header, "{\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":");
    put_json(&header, key_id);
    put(&header, "}", 1);
    put_base64url(&encoded_header, header.p, header.len);
    free(header.p);
    free(text);
}

/// One array of the fixtures (accounts, sessions or assignments) into its table.
static void load_table(Scanner *s, Table *table) {
    char username[256], role[64], hash[129], kind[64], id[256], key[600];
    long long expires_at;
    Field fields[] = { { "username", username, sizeof username, NULL }, { "role", role, sizeof role, NULL },
                       { "tokenHash", hash, sizeof hash, NULL }, { "kind", kind, sizeof kind, NULL },
                       { "id", id, sizeof id, NULL }, { "expiresAt", NULL, 0, &expires_at } };
    expect(s, '[');
    for (int seen = 0; more(s, ']', &seen);) {
        *username = *role = *hash = *kind = *id = 0, expires_at = 0;
        object(s, fields, 6);
        snprintf(key, sizeof key, "%s|%s|%s", username, kind, id);
        if (table == &roles) insert(table, username, role, 0);
        else if (table == &sessions) insert(table, hash, username, expires_at);
        else insert(table, key, "", 0);
    }
}

/// Reads the fixtures: the tables, then the key file they name.
static void load_fixtures(const char *path) {
    char *text = read_file(path), name[64], key_file[4096] = "";
    Scanner s = { text, true };
    expect(&s, '{');
    for (int seen = 0; more(&s, '}', &seen);) {
        string(&s, name, sizeof name);
        expect(&s, ':');
        Table *table = !strcmp(name, "accounts") ? &roles : !strcmp(name, "sessions") ? &sessions
            : !strcmp(name, "assignments") ? &assignments : NULL;
        if (!strcmp(name, "keyFile")) string(&s, key_file, sizeof key_file);
        else if (table) load_table(&s, table);
        else s.ok = false;
    }
    if (!s.ok || !*key_file) die("the fixtures are not the JSON token-server.mjs reads");
    free(text);
    load_key(key_file);
}

// ---- Requests ----

typedef struct Pending Pending;

typedef struct Worker {
    int listener, epoll;
    EVP_MD_CTX *signer, *signing;  // set up once with the key; a copy signs each token
    Buf claims, jwt, body;
    time_t date_second;
    char date[40];
    int answered;                  // with --record: an eventfd, written when answers wait in `ready`
    pthread_mutex_t ready_lock;
    Pending *ready;
    bool notify;                   // the writer's: this worker has answers in the batch being handed back,
    struct Worker *next_notified;  // and the next worker that has
} Worker;

typedef struct {
    int fd;
    uint32_t events;
    bool closing;  // answer what is pending, then close
    bool head;     // the request answered is a HEAD: no body
    bool waiting;  // with --record: the answer waits for its record; no further request is read
    char address[INET6_ADDRSTRLEN];
    size_t len, discard, sent;
    Buf out;
    char in[MAX_HEAD];
} Conn;

typedef struct {
    const char *method, *target, *authorization;
    size_t method_len, target_len, authorization_len, content_length;
    bool close;
} Request;

/// The reason phrase of the status codes answered.
static const char *reason(int code) {
    return code == 200 ? "OK" : code == 400 ? "Bad Request" : code == 401 ? "Unauthorized" : code == 403 ? "Forbidden"
        : code == 404 ? "Not Found" : code == 431 ? "Request Header Fields Too Large" : "Internal Server Error";
}

/// Appends the answer `code` with the JSON `w->body` to what `c` is sent.
static void respond(Worker *w, Conn *c, int code) {
    time_t now = time(NULL);
    if (now != w->date_second) {
        struct tm tm;
        strftime(w->date, sizeof w->date, "%a, %d %b %Y %H:%M:%S GMT", gmtime_r(&now, &tm));
        w->date_second = now;
    }
    putf(&c->out, "HTTP/1.1 %d %s\r\nContent-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\n"
         "Date: %s\r\nConnection: %s\r\nContent-Length: %zu\r\n\r\n",
         code, reason(code), w->date, c->closing ? "close" : "keep-alive", w->body.len);
    if (!c->head) put(&c->out, w->body.p, w->body.len);
}

/// A Google-shaped JSON error.
static void fail(Worker *w, Conn *c, int code, const char *status, const char *message) {
    w->body.len = 0;
    putf(&w->body, "{\"error\":{\"code\":%d,\"message\":", code);
    put_json(&w->body, message);
    putf(&w->body, ",\"status\":\"%s\"}}", status);
    respond(w, c, code);
}

static bool forbidden(uint32_t c) {  // JavaScript's [\s/:?,#*\x00-\x1f\x7f]
    return c < 0x20 || c == 0x7f || (c < 0x80 && strchr(" /:?,#*", (int)c)) || c == 0xA0 || c == 0x1680
        || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000 || c == 0xFEFF;
}

/// decodeURIComponent: `in` percent-decoded into `out` (NUL-terminated), false on a bad escape or
/// bytes that are not UTF-8; `allowed` tells whether it is 1 to 64 UTF-16 units, none forbidden.
static bool decode_vehicle(const char *in, size_t n, char *out, bool *allowed) {
    size_t len = 0, units = 0;
    for (size_t i = 0; i < n; i++) {
        int hi, lo;
        if (in[i] != '%') out[len++] = in[i];
        else if (i + 2 >= n || (hi = hex_digit(in[i + 1])) < 0 || (lo = hex_digit(in[i + 2])) < 0) return false;
        else out[len++] = (char)(hi * 16 + lo), i += 2;
    }
    out[len] = 0;
    *allowed = true;
    for (const unsigned char *s = (const unsigned char *)out, *end = s + len; s < end;) {
        unsigned need = *s < 0x80 ? 0 : *s >= 0xC2 && *s < 0xE0 ? 1 : *s >= 0xE0 && *s < 0xF0 ? 2 : *s >= 0xF0 && *s < 0xF5 ? 3 : 4;
        if (need == 4 || (size_t)(end - s) <= need) return false;
        uint32_t c = need ? *s & (0x3Fu >> need) : *s;
        for (unsigned k = 1; k <= need; k++) {
            if ((s[k] & 0xC0) != 0x80) return false;
            c = c << 6 | (s[k] & 0x3F);
        }
        if ((need == 2 && (c < 0x800 || (c >= 0xD800 && c < 0xE000))) || (need == 3 && (c < 0x10000 || c > 0x10FFFF))) return false;
        units += c >= 0x10000 ? 2 : 1;
        *allowed = *allowed && !forbidden(c);
        s += need + 1;
    }
    *allowed = *allowed && units >= 1 && units <= 64;
    return true;
}

/// The bearer token of the request, as token-server.mjs reads it.
static bool bearer(const Request *r, const char **token, size_t *n) {
    const char *h = r->authorization, *space = h ? memchr(h, ' ', r->authorization_len) : NULL;
    if (!space || space - h != 6 || strncasecmp(h, "bearer", 6)) return false;
    const char *t = space + 1, *end = h + r->authorization_len;
    while (t < end && isspace((unsigned char)*t)) t++;
    while (end > t && isspace((unsigned char)end[-1])) end--;
    *token = t;
    *n = (size_t)(end - t);
    return *n > 0;
}

// ---- The record of tokens (--record FILE) ----

/// A token's record, and its answer held until the record is written.
struct Pending {
    Pending *next;
    Worker *worker;
    Conn *conn;
    char id[31], session_id[19];
    char *account, *vehicle;
    long long issued_at, expires_at;
    Buf answer;
};

static sqlite3 *record_db;
static sqlite3_stmt *record_insert;
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t queue_ready = PTHREAD_COND_INITIALIZER;
static Pending *queue_head, **queue_tail = &queue_head;
static unsigned long long record_sequence;

/// Opens (or creates) the record: FleetAuth's table and indexes (schema versions 2, 4 and 5).
static void open_record(const char *path) {
    static const char *schema =
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 10000;"
        "CREATE TABLE IF NOT EXISTS token_server_token_records (id TEXT PRIMARY KEY, recorded_at BIGINT NOT NULL,"
        " outcome TEXT NOT NULL, reason TEXT, account TEXT NOT NULL, role TEXT, kind TEXT NOT NULL, vehicle_id TEXT, trip_id TEXT,"
        " delivery_vehicle_id TEXT, tracking_id TEXT, kid TEXT, issued_at BIGINT, expires_at BIGINT, session_id TEXT, client_address TEXT);"
        "CREATE INDEX IF NOT EXISTS token_server_token_records_by_vehicle_id ON token_server_token_records (vehicle_id, id) WHERE vehicle_id IS NOT NULL;"
        "CREATE INDEX IF NOT EXISTS token_server_token_records_by_trip_id ON token_server_token_records (trip_id, id) WHERE trip_id IS NOT NULL;"
        "CREATE INDEX IF NOT EXISTS token_server_token_records_by_delivery_vehicle_id ON token_server_token_records (delivery_vehicle_id, id)"
        " WHERE delivery_vehicle_id IS NOT NULL;"
        "CREATE INDEX IF NOT EXISTS token_server_token_records_by_tracking_id ON token_server_token_records (tracking_id, id) WHERE tracking_id IS NOT NULL;";
    if (sqlite3_open_v2(path, &record_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK
        || sqlite3_exec(record_db, schema, NULL, NULL, NULL) != SQLITE_OK
        || sqlite3_prepare_v3(record_db,
               "INSERT INTO token_server_token_records (id, recorded_at, outcome, reason, account, role, kind, vehicle_id, trip_id,"
               " delivery_vehicle_id, tracking_id, kid, issued_at, expires_at, session_id, client_address)"
               " VALUES (?, ?, 'issued', NULL, ?, 'driver', 'driver', ?, NULL, NULL, NULL, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
               -1, SQLITE_PREPARE_PERSISTENT, &record_insert, NULL) != SQLITE_OK)
        die("cannot open the record file");
}

/// Holds the answer just appended to `c->out` (from `from` on) until the token's record is
/// written, and queues the record.
static void hold_for_record(Worker *w, Conn *c, size_t from, const Entry *session, const char *vehicle, long long now) {
    Pending *p = calloc(1, sizeof *p);
    if (!p) die("out of memory");
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    unsigned long long sequence = __atomic_fetch_add(&record_sequence, 1, __ATOMIC_RELAXED);
    snprintf(p->id, sizeof p->id, "%016llx%014llx", (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec,
             sequence & 0xFFFFFFFFFFFFFFull);
    snprintf(p->session_id, sizeof p->session_id, "s-%.16s", session->key);
    p->worker = w, p->conn = c, p->issued_at = now, p->expires_at = now + LIFETIME;
    p->account = strdup(session->text), p->vehicle = strdup(vehicle);
    put(&p->answer, c->out.p + from, c->out.len - from);
    c->out.len = from;
    c->waiting = true;
    pthread_mutex_lock(&queue_lock);
    *queue_tail = p, queue_tail = &p->next;
    pthread_cond_signal(&queue_ready);
    pthread_mutex_unlock(&queue_lock);
}

/// The writer: commits what waits in one transaction, then hands the answers back.
static void *write_records(void *workers_arg) {
    (void)workers_arg;
    for (;;) {
        pthread_mutex_lock(&queue_lock);
        while (!queue_head) pthread_cond_wait(&queue_ready, &queue_lock);
        Pending *batch = queue_head;
        queue_head = NULL, queue_tail = &queue_head;
        pthread_mutex_unlock(&queue_lock);
        if (sqlite3_exec(record_db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) die("cannot write the record");
        for (Pending *p = batch; p; p = p->next) {
            sqlite3_stmt *s = record_insert;
            sqlite3_bind_text(s, 1, p->id, -1, SQLITE_STATIC);
            sqlite3_bind_int64(s, 2, p->issued_at);
            sqlite3_bind_text(s, 3, p->account, -1, SQLITE_STATIC);
            sqlite3_bind_text(s, 4, p->vehicle, -1, SQLITE_STATIC);
            sqlite3_bind_text(s, 5, key_id, -1, SQLITE_STATIC);
            sqlite3_bind_int64(s, 6, p->issued_at);
            sqlite3_bind_int64(s, 7, p->expires_at);
            sqlite3_bind_text(s, 8, p->session_id, -1, SQLITE_STATIC);
            sqlite3_bind_text(s, 9, p->conn->address, -1, SQLITE_STATIC);
            if (sqlite3_step(s) != SQLITE_DONE) die("cannot write the record");
            sqlite3_reset(s);
        }
        if (sqlite3_exec(record_db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) die("cannot write the record");
        Worker *notified = NULL;
        for (Pending *p = batch, *next; p; p = next) {
            next = p->next;
            Worker *w = p->worker;
            pthread_mutex_lock(&w->ready_lock);
            p->next = w->ready, w->ready = p;
            pthread_mutex_unlock(&w->ready_lock);
            if (!w->notify) w->notify = true, w->next_notified = notified, notified = w;
        }
        for (Worker *w = notified; w; w = w->next_notified) {
            uint64_t one = 1;
            w->notify = false;
            if (write(w->answered, &one, sizeof one) != sizeof one) die("cannot wake a worker");
        }
    }
    return NULL;
}

static void serve(Worker *w, Conn *c);

/// The answers whose records were written: each goes out, and its connection reads again.
static void send_answered(Worker *w) {
    uint64_t count;
    if (read(w->answered, &count, sizeof count) != sizeof count) return;
    pthread_mutex_lock(&w->ready_lock);
    Pending *ready = w->ready;
    w->ready = NULL;
    pthread_mutex_unlock(&w->ready_lock);
    for (Pending *p = ready, *next; p; p = next) {
        next = p->next;
        Conn *c = p->conn;
        put(&c->out, p->answer.p, p->answer.len);
        c->waiting = false;
        struct epoll_event e = { .events = EPOLLIN, .data.ptr = c };
        if (epoll_ctl(w->epoll, EPOLL_CTL_ADD, c->fd, &e) == 0) c->events = EPOLLIN;
        free(p->answer.p), free(p->account), free(p->vehicle), free(p);
        serve(w, c);
    }
}

/// Signs the driver token for `vehicle` and answers it (with --record, once its record is written).
static void issue(Worker *w, Conn *c, const Entry *session, const char *vehicle, long long now) {
    unsigned char signature[1024];
    size_t signature_len = sizeof signature;
    w->claims.len = w->jwt.len = w->body.len = 0;
    put_text(&w->claims, "{\"iss\":");
    put_json(&w->claims, client_email);
    put_text(&w->claims, ",\"sub\":");
    put_json(&w->claims, client_email);
    putf(&w->claims, ",\"aud\":\"%s\",\"iat\":%lld,\"exp\":%lld,\"authorization\":{\"vehicleid\":", AUDIENCE, now, now + LIFETIME);
    put_json(&w->claims, vehicle);
    put(&w->claims, "}}", 2);
    put(&w->jwt, encoded_header.p, encoded_header.len);
    put(&w->jwt, ".", 1);
    put_base64url(&w->jwt, w->claims.p, w->claims.len);
    if (!EVP_MD_CTX_copy_ex(w->signing, w->signer)
        || EVP_DigestSign(w->signing, signature, &signature_len, (const unsigned char *)w->jwt.p, w->jwt.len) != 1) {
        fail(w, c, 500, "INTERNAL", "signing failed");
        return;
    }
    put(&w->jwt, ".", 1);
    put_base64url(&w->jwt, signature, signature_len);
    putf(&w->body, "{\"expiresAt\":%lld,\"expiresInSeconds\":%lld,\"issuedAt\":%lld,\"token\":\"",
         now + LIFETIME, now + LIFETIME - (long long)time(NULL), now);
    put(&w->body, w->jwt.p, w->jwt.len);
    put_text(&w->body, "\"}");
    size_t from = c->out.len;
    respond(w, c, 200);
    if (record_db) hold_for_record(w, c, from, session, vehicle, now);
}

/// The unexpired session whose token is `token`, found by the SHA-256 (hex) of the token.
static const Entry *find_session(const char *token, size_t n, long long now) {
    unsigned char hash[SHA256_DIGEST_LENGTH];
    char hex[2 * SHA256_DIGEST_LENGTH + 1];
    SHA256((const unsigned char *)token, n, hash);
    for (int i = 0; i < SHA256_DIGEST_LENGTH; i++)
        hex[2 * i] = "0123456789abcdef"[hash[i] >> 4], hex[2 * i + 1] = "0123456789abcdef"[hash[i] & 15];
    hex[2 * SHA256_DIGEST_LENGTH] = 0;
    const Entry *session = lookup(&sessions, hex);
    return session && session->number > now ? session : NULL;
}

/// Whether the assignment "username|vehicle|id" exists.
static bool is_assigned(const char *username, const char *vehicle) {
    char key[MAX_HEAD + 300];
    snprintf(key, sizeof key, "%s|vehicle|%s", username, vehicle);
    return lookup(&assignments, key) != NULL;
}

/// token-server.mjs's handle: its checks, in its order.
static void route(Worker *w, Conn *c, const Request *r) {
    size_t prefix = sizeof PREFIX - 1, token_len;
    const char *token;
    char vehicle[MAX_HEAD], message[MAX_HEAD + 300];
    bool allowed;
    long long now = (long long)time(NULL);
    const Entry *session, *role;
    if (r->method_len != 3 || memcmp(r->method, "GET", 3) || r->target_len < prefix || memcmp(r->target, PREFIX, prefix))
        fail(w, c, 404, "NOT_FOUND", "no such route");
    else if (!decode_vehicle(r->target + prefix, r->target_len - prefix, vehicle, &allowed))
        fail(w, c, 400, "INVALID_ARGUMENT", "the vehicle id is not valid percent-encoding");
    else if (!bearer(r, &token, &token_len))
        fail(w, c, 401, "UNAUTHENTICATED", "missing credentials: send Authorization: Bearer <session token>");
    else if (!(session = find_session(token, token_len, now)))
        fail(w, c, 401, "UNAUTHENTICATED", "the session is not valid: it is unknown, ended or expired; log in again");
    else if (!allowed)
        fail(w, c, 403, "PERMISSION_DENIED", "no token is issued for this vehicle id");
    else if (!(role = lookup(&roles, session->text)) || strcmp(role->text, "driver"))
        fail(w, c, 403, "PERMISSION_DENIED", "driver tokens are for driver accounts");
    else if (is_assigned(session->text, vehicle))
        issue(w, c, session, vehicle, now);
    else {
        snprintf(message, sizeof message, "account \"%s\" is not assigned to vehicle \"%s\"", session->text, vehicle);
        fail(w, c, 403, "PERMISSION_DENIED", message);
    }
}

static bool header_is(const char *name, size_t n, const char *wanted) {
    return n == strlen(wanted) && !strncasecmp(name, wanted, n);
}

/// Whether a header value contains `word`, in any case.
static bool has_word(const char *v, size_t n, const char *word) {
    for (size_t i = 0, k = strlen(word); i + k <= n; i++)
        if (!strncasecmp(v + i, word, k)) return true;
    return false;
}

/// The request line and headers of [p, end) (each line ending in CRLF); false when not HTTP/1.x.
static bool parse_head(const char *p, const char *end, Request *r) {
    memset(r, 0, sizeof *r);
    const char *eol = memmem(p, (size_t)(end - p), "\r\n", 2), *sp1 = memchr(p, ' ', (size_t)(eol - p));
    const char *sp2 = sp1 ? memchr(sp1 + 1, ' ', (size_t)(eol - sp1 - 1)) : NULL;
    if (!sp2 || sp1 == p || sp2 == sp1 + 1 || eol - sp2 != 9 || memcmp(sp2 + 1, "HTTP/1.", 7) || (sp2[8] != '0' && sp2[8] != '1'))
        return false;
    *r = (Request){ .method = p, .method_len = (size_t)(sp1 - p), .target = sp1 + 1, .target_len = (size_t)(sp2 - sp1 - 1), .close = sp2[8] == '0' };
    for (p = eol + 2; p < end; p = eol + 2) {
        eol = memmem(p, (size_t)(end - p), "\r\n", 2);
        const char *colon = memchr(p, ':', (size_t)(eol - p));
        if (!colon || colon == p || memchr(p, ' ', (size_t)(colon - p)) || memchr(p, '\t', (size_t)(colon - p))) return false;
        const char *v = colon + 1, *v_end = eol;
        while (v < v_end && (*v == ' ' || *v == '\t')) v++;
        while (v_end > v && (v_end[-1] == ' ' || v_end[-1] == '\t')) v_end--;
        size_t name = (size_t)(colon - p), n = (size_t)(v_end - v);
        if (header_is(p, name, "authorization") && !r->authorization) r->authorization = v, r->authorization_len = n;
        else if (header_is(p, name, "transfer-encoding")) return false;
        else if (header_is(p, name, "connection"))
            r->close = has_word(v, n, "close") || (r->close && !has_word(v, n, "keep-alive"));
        else if (header_is(p, name, "content-length")) {
            if (n == 0 || n > 15 || strspn(v, "0123456789") < n) return false;
            r->content_length = strtoull(v, NULL, 10);
        }
    }
    return true;
}

/// Answers the complete requests buffered on `c`, in order, and keeps what is left of the next.
static void process(Worker *w, Conn *c) {
    size_t at = 0;
    while (!c->closing && !c->waiting && c->out.len < MAX_PENDING) {
        size_t body = c->discard < c->len - at ? c->discard : c->len - at;
        at += body;
        if ((c->discard -= body) > 0) break;
        char *head = c->in + at, *end = memmem(head, c->len - at, "\r\n\r\n", 4);
        Request r;
        c->head = false;
        if (!end) {
            if (c->len - at == MAX_HEAD) c->closing = true, fail(w, c, 431, "INVALID_ARGUMENT", "the request head is too large");
            break;
        }
        at = (size_t)(end + 4 - c->in);
        if (!parse_head(head, end + 2, &r)) {
            c->closing = true;
            fail(w, c, 400, "INVALID_ARGUMENT", "malformed HTTP/1.1 request");
            break;
        }
        c->closing = r.close;
        c->head = r.method_len == 4 && !memcmp(r.method, "HEAD", 4);
        c->discard = r.content_length;
        route(w, c, &r);
    }
    memmove(c->in, c->in + at, c->len - at);
    c->len -= at;
}

/// Closes the connection, first reading what the client already sent (up to a limit): closing with
/// unread data would reset the connection, and the client might lose the answer to read.
static void drop(Conn *c) {
    for (int i = 0; c->closing && i < 16 && read(c->fd, c->in, sizeof c->in) > 0; i++) continue;
    close(c->fd);
    free(c->out.p);
    free(c);
}

/// Waits for `events` (EPOLLIN to read requests, or EPOLLOUT to write answers) on the connection.
static void watch(Worker *w, Conn *c, uint32_t events) {
    struct epoll_event e = { .events = events, .data.ptr = c };
    if (c->events != events && epoll_ctl(w->epoll, EPOLL_CTL_MOD, c->fd, &e) == 0) c->events = events;
}

/// Answers what is buffered and writes it, until nothing is left (then waits for more requests)
/// or the socket is full (then waits to write); frees `c` when the connection ends.
static void serve(Worker *w, Conn *c) {
    for (process(w, c); c->out.len > 0; process(w, c)) {
        while (c->sent < c->out.len) {
            ssize_t n = send(c->fd, c->out.p + c->sent, c->out.len - c->sent, MSG_NOSIGNAL);
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                watch(w, c, EPOLLOUT);
                return;
            }
            if (n < 0 && errno != EINTR) break;
            if (n > 0) c->sent += (size_t)n;
        }
        if (c->closing || c->sent < c->out.len) {
            drop(c);
            return;
        }
        c->out.len = c->sent = 0;
    }
    if (c->waiting) {
        // Nothing is read or written until the record is: the writer hands the answer back.
        epoll_ctl(w->epoll, EPOLL_CTL_DEL, c->fd, NULL);
        c->events = 0;
        return;
    }
    watch(w, c, EPOLLIN);
}

/// Reads what has arrived (one read, up to the buffer's room) and serves it; ends the connection at EOF.
static void read_more(Worker *w, Conn *c) {
    ssize_t n = read(c->fd, c->in + c->len, MAX_HEAD - c->len);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
        drop(c);
        return;
    }
    if (n > 0) c->len += (size_t)n;
    serve(w, c);
}

/// Accepts every pending connection, each watched for requests.
static void accept_all(Worker *w) {
    for (int fd, one = 1; (fd = accept4(w->listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0;) {
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        Conn *c = calloc(1, sizeof *c);
        struct epoll_event e = { .events = EPOLLIN, .data.ptr = c };
        if (c) *c = (Conn){ .fd = fd, .events = EPOLLIN };
        struct sockaddr_storage peer;
        socklen_t peer_len = sizeof peer;
        if (c && getpeername(fd, (struct sockaddr *)&peer, &peer_len) == 0 && peer.ss_family == AF_INET)
            inet_ntop(AF_INET, &((struct sockaddr_in *)&peer)->sin_addr, c->address, sizeof c->address);
        if (!c || epoll_ctl(w->epoll, EPOLL_CTL_ADD, fd, &e) < 0) close(fd), free(c);
    }
}

/// A worker's loop: connections and requests, until the stop event.
static void *work(void *arg) {
    Worker *w = arg;
    struct epoll_event events[64];
    for (;;) {
        int n = epoll_wait(w->epoll, events, 64, -1);
        for (int i = 0; i < n; i++) {
            void *p = events[i].data.ptr;
            if (!p) return NULL;  // the stop event
            if (p == w) accept_all(w);
            else if (p == &w->answered) send_answered(w);
            else if (((Conn *)p)->events == EPOLLIN) read_more(w, p);
            else serve(w, p);
        }
    }
}

// ---- Start and stop ----

/// A listening socket on 127.0.0.1:`port` (a free port when 0, then set), shared with SO_REUSEPORT.
static int listen_on(int *port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), one = 1;
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)*port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t len = sizeof a;
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) || bind(fd, (struct sockaddr *)&a, len)
        || listen(fd, 4096) || getsockname(fd, (struct sockaddr *)&a, &len))
        die("cannot listen on 127.0.0.1");
    *port = ntohs(a.sin_port);
    return fd;
}

/// A worker's socket (on `port`, a free one when 0), epoll loop, and signing context.
static void set_up(Worker *w, int *port, int stop) {
    BIO *pem = BIO_new_mem_buf(private_key, -1);
    EVP_PKEY *key = pem ? PEM_read_bio_PrivateKey(pem, NULL, NULL, NULL) : NULL;
    w->listener = listen_on(port);
    w->epoll = epoll_create1(EPOLL_CLOEXEC);
    w->signer = EVP_MD_CTX_new();
    w->signing = EVP_MD_CTX_new();
    struct epoll_event on_listener = { .events = EPOLLIN, .data.ptr = w }, on_stop = { .events = EPOLLIN, .data.ptr = NULL };
    if (!key || !EVP_PKEY_is_a(key, "RSA") || !w->signer || !w->signing
        || EVP_DigestSignInit(w->signer, NULL, EVP_sha256(), NULL, key) != 1)
        die("the key file's private_key is not an RSA private key in PEM");
    if (w->epoll < 0 || epoll_ctl(w->epoll, EPOLL_CTL_ADD, w->listener, &on_listener) || epoll_ctl(w->epoll, EPOLL_CTL_ADD, stop, &on_stop))
        die("cannot set up epoll");
    struct epoll_event on_answered = { .events = EPOLLIN, .data.ptr = &w->answered };
    w->answered = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    pthread_mutex_init(&w->ready_lock, NULL);
    if (w->answered < 0 || epoll_ctl(w->epoll, EPOLL_CTL_ADD, w->answered, &on_answered)) die("cannot set up epoll");
    EVP_PKEY_free(key);
    BIO_free(pem);
}

int main(int argc, char **argv) {
    long threads = sysconf(_SC_NPROCESSORS_ONLN), port = 0;
    const char *record = NULL;
    for (int i = 2; i + 1 < argc && argc % 2 == 0; i += 2) {
        if (!strcmp(argv[i], "--threads")) threads = strtol(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--port")) port = strtol(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--record")) record = argv[i + 1];
        else threads = 0;
    }
    if (argc < 2 || argc % 2 || threads < 1 || threads > 1024 || port < 0 || port > 65535)
        die("usage: token-server FIXTURES.json [--threads N] [--port N] [--record FILE]");
    load_fixtures(argv[1]);
    if (record) open_record(record);
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGTERM);
    sigaddset(&stop_signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);  // the workers inherit it; main waits for them
    int stop = eventfd(0, EFD_CLOEXEC), listening_port = (int)port, received;
    Worker *workers = calloc((size_t)threads, sizeof *workers);
    pthread_t *ids = calloc((size_t)threads, sizeof *ids);
    if (stop < 0 || !workers || !ids) die("cannot start");
    for (long i = 0; i < threads; i++) set_up(&workers[i], &listening_port, stop);
    printf("listening %d\n", listening_port);
    fflush(stdout);
    for (long i = 0; i < threads; i++)
        if (pthread_create(&ids[i], NULL, work, &workers[i])) die("cannot start a thread");
    pthread_t writer;
    if (record_db && pthread_create(&writer, NULL, write_records, NULL)) die("cannot start the record's writer");
    sigwait(&stop_signals, &received);
    uint64_t one = 1;
    if (write(stop, &one, sizeof one) != sizeof one) die("cannot stop the workers");
    for (long i = 0; i < threads; i++) pthread_join(ids[i], NULL);
    return 0;
}
