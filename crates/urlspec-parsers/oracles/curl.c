/*
 * The real implementation of the curl profile: libcurl's URL API, as a
 * transfer parses the URL it is given (lib/url.c, parseurlandfillconn):
 *
 *   curl_url_set(h, CURLUPART_URL, s,
 *                CURLU_GUESS_SCHEME | CURLU_NON_SUPPORT_SCHEME);
 *   curl_url_get(h, CURLUPART_URL, &url, 0);
 *
 * then curl_url_get of CURLUPART_SCHEME, USER, PASSWORD, HOST, PORT, PATH,
 * QUERY and FRAGMENT, each with no flag (the text as libcurl keeps it; a
 * missing part is null). The user information is USER, and ":" and
 * PASSWORD when there is one. An error is the CURLUcode's name.
 *
 * The oracle protocol (README.md): a first line naming the runtime, then,
 * for each line of standard input (a URL as a JSON string), one line of
 * JSON with the components, or the error returned. libcurl takes a C
 * string: a URL is cut at its first NUL, as CURLOPT_URL cuts it. Bytes
 * that are not UTF-8 are written as U+FFFD, one per byte.
 *
 * With -bench FILE ROUNDS, it parses every line of FILE ROUNDS times (the
 * set and the gets above), after as many rounds untimed, and writes the
 * number of URLs parsed per second (no JSON, no output per URL).
 *
 * The test builds it with `cc oracles/curl.c -lcurl`.
 */

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const names[] = {
    "CURLUE_OK", "CURLUE_BAD_HANDLE", "CURLUE_BAD_PARTPOINTER",
    "CURLUE_MALFORMED_INPUT", "CURLUE_BAD_PORT_NUMBER",
    "CURLUE_UNSUPPORTED_SCHEME", "CURLUE_URLDECODE", "CURLUE_OUT_OF_MEMORY",
    "CURLUE_USER_NOT_ALLOWED", "CURLUE_UNKNOWN_PART", "CURLUE_NO_SCHEME",
    "CURLUE_NO_USER", "CURLUE_NO_PASSWORD", "CURLUE_NO_OPTIONS",
    "CURLUE_NO_HOST", "CURLUE_NO_PORT", "CURLUE_NO_QUERY",
    "CURLUE_NO_FRAGMENT", "CURLUE_NO_ZONEID", "CURLUE_BAD_FILE_URL",
    "CURLUE_BAD_FRAGMENT", "CURLUE_BAD_HOSTNAME", "CURLUE_BAD_IPV6",
    "CURLUE_BAD_LOGIN", "CURLUE_BAD_PASSWORD", "CURLUE_BAD_PATH",
    "CURLUE_BAD_QUERY", "CURLUE_BAD_SCHEME", "CURLUE_BAD_SLASHES",
    "CURLUE_BAD_USER", "CURLUE_LACKS_IDN",
};

static const unsigned int FLAGS = CURLU_GUESS_SCHEME | CURLU_NON_SUPPORT_SCHEME;

/* The length of the UTF-8 sequence at s (n bytes left), 0 if none. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    unsigned char lo = 0x80, hi = 0xbf;
    size_t len, i;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        len = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        if (c == 0xe0)
            lo = 0xa0;
        if (c == 0xed)
            hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        if (c == 0xf0)
            lo = 0x90;
        if (c == 0xf4)
            hi = 0x8f;
    } else
        return 0;
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    for (i = 2; i < len; i++)
        if (s[i] < 0x80 || s[i] > 0xbf)
            return 0;
    return len;
}

static void json_string(FILE *out, const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t n, i = 0;
    if (!text) {
        fputs("null", out);
        return;
    }
    n = strlen(text);
    putc('"', out);
    while (i < n) {
        unsigned char c = s[i];
        size_t len = utf8_len(s + i, n - i);
        if (len == 0) {
            fputs("\\ufffd", out);
            i++;
        } else if (c == '"' || c == '\\') {
            putc('\\', out);
            putc(c, out);
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            fprintf(out, "\\u%04x", c);
            i++;
        } else {
            fwrite(s + i, 1, len, out);
            i += len;
        }
    }
    putc('"', out);
}

static void field(FILE *out, const char *key, const char *value, int first)
{
    if (!first)
        putc(',', out);
    json_string(out, key);
    putc(':', out);
    if (value)
        json_string(out, value);
    else
        fputs("null", out);
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static unsigned long hex4(const char *s)
{
    unsigned long v = 0;
    int k;
    for (k = 0; k < 4; k++)
        v = v << 4 | (unsigned long)hexval(s[k]);
    return v;
}

static char *put_utf8(char *o, unsigned long cp)
{
    if (cp < 0x80)
        *o++ = (char)cp;
    else if (cp < 0x800) {
        *o++ = (char)(0xc0 | cp >> 6);
        *o++ = (char)(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        *o++ = (char)(0xe0 | cp >> 12);
        *o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
        *o++ = (char)(0x80 | (cp & 0x3f));
    } else {
        *o++ = (char)(0xf0 | cp >> 18);
        *o++ = (char)(0x80 | ((cp >> 12) & 0x3f));
        *o++ = (char)(0x80 | ((cp >> 6) & 0x3f));
        *o++ = (char)(0x80 | (cp & 0x3f));
    }
    return o;
}

/* The JSON string that is the line, decoded in place (a NUL stays in it:
   libcurl reads up to it). */
static void unjson(char *line)
{
    char *i = strchr(line, '"'), *o = line;
    if (!i) {
        fprintf(stderr, "not a JSON string: %s\n", line);
        exit(2);
    }
    for (i++; *i && *i != '"'; i++) {
        if (*i != '\\') {
            *o++ = *i;
            continue;
        }
        switch (*++i) {
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u': {
            unsigned long cp = hex4(i + 1);
            i += 4;
            if (cp >= 0xd800 && cp < 0xdc00 && i[1] == '\\' && i[2] == 'u') {
                cp = 0x10000 + ((cp - 0xd800) << 10) + (hex4(i + 3) - 0xdc00);
                i += 6;
            }
            o = put_utf8(o, cp);
            break;
        }
        default: *o++ = *i;
        }
    }
    *o = 0;
}

struct parts {
    CURLUcode error;
    char *part[8];
};

static const CURLUPart which[8] = {
    CURLUPART_SCHEME, CURLUPART_USER, CURLUPART_PASSWORD, CURLUPART_HOST,
    CURLUPART_PORT, CURLUPART_PATH, CURLUPART_QUERY, CURLUPART_FRAGMENT,
};

/* A new handle for each URL, as each transfer has: a handle that holds a
   URL would resolve a relative one against it. */
static void parse(const char *url, struct parts *p)
{
    char *full = NULL;
    int k;
    CURLU *h = curl_url();
    memset(p, 0, sizeof *p);
    p->error = curl_url_set(h, CURLUPART_URL, url, FLAGS);
    if (!p->error)
        p->error = curl_url_get(h, CURLUPART_URL, &full, 0);
    curl_free(full);
    if (!p->error)
        for (k = 0; k < 8; k++)
            if (curl_url_get(h, which[k], &p->part[k], 0))
                p->part[k] = NULL;
    curl_url_cleanup(h);
}

static void release(struct parts *p)
{
    int k;
    for (k = 0; k < 8; k++)
        curl_free(p->part[k]);
}

static void answer(FILE *out, const char *url)
{
    struct parts p;
    parse(url, &p);
    putc('{', out);
    if (p.error) {
        field(out, "error",
              (size_t)p.error < sizeof names / sizeof names[0]
                  ? names[p.error] : "CURLUE_?", 1);
        field(out, "message", curl_url_strerror(p.error), 0);
    } else {
        char *userinfo = NULL;
        if (p.part[1] || p.part[2]) {
            const char *user = p.part[1] ? p.part[1] : "";
            userinfo = malloc(strlen(user) + 2 + (p.part[2] ? strlen(p.part[2]) : 0));
            strcpy(userinfo, user);
            if (p.part[2]) {
                strcat(userinfo, ":");
                strcat(userinfo, p.part[2]);
            }
        }
        field(out, "scheme", p.part[0], 1);
        field(out, "userinfo", userinfo, 0);
        field(out, "host", p.part[3], 0);
        field(out, "port", p.part[4], 0);
        field(out, "path", p.part[5], 0);
        field(out, "query", p.part[6], 0);
        field(out, "fragment", p.part[7], 0);
        free(userinfo);
    }
    fputs("}\n", out);
    release(&p);
}

static void bench(const char *file, int rounds)
{
    FILE *in = fopen(file, "r");
    char **lines = NULL, *line = NULL;
    size_t n = 0, cap = 0, size = 0, hosts = 0;
    ssize_t got;
    struct timespec t0 = {0, 0}, t1, c0 = {0, 0}, c1;
    double seconds, cpu, urls;
    int r;
    size_t k;
    if (!in) {
        perror(file);
        exit(2);
    }
    while ((got = getline(&line, &size, in)) >= 0) {
        if (got > 0 && line[got - 1] == '\n')
            line[got - 1] = 0;
        if (n == cap)
            lines = realloc(lines, (cap = cap * 2 + 1024) * sizeof *lines);
        lines[n++] = strdup(line);
    }
    for (r = -rounds; r < rounds; r++) {
        if (r == 0) {
            clock_gettime(CLOCK_MONOTONIC, &t0);
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
        }
        for (k = 0; k < n; k++) {
            struct parts p;
            parse(lines[k], &p);
            hosts += p.part[3] ? strlen(p.part[3]) : 0;
            release(&p);
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    cpu = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) / 1e9;
    urls = (double)n * rounds;
    printf("libcurl %s URL API: %.0f URLs in %.3f s (%.3f s of CPU): %.0f URLs/s, %.0f per CPU second (%zu host bytes)\n",
           curl_version_info(CURLVERSION_NOW)->version, urls, seconds, cpu,
           urls / seconds, urls / cpu, hosts);
}

int main(int argc, char **argv)
{
    char *line = NULL;
    size_t size = 0;
    if (argc == 4 && !strcmp(argv[1], "-bench")) {
        bench(argv[2], atoi(argv[3]));
        return 0;
    }
    printf("{\"runtime\":\"libcurl %s\",\"library\":\"URL API\"}\n",
           curl_version_info(CURLVERSION_NOW)->version);
    fflush(stdout);
    while (getline(&line, &size, stdin) >= 0) {
        unjson(line);
        answer(stdout, line);
    }
    free(line);
    return 0;
}
