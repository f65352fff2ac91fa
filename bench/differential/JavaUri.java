/*
 * java.net.URI (RFC 2396 with RFC 2732) as an oracle for the urlspec
 * differential test (bench/tests/differential). Compiled once with javac into
 * a temporary directory and run as ONE JVM over every input:
 *
 *     java -cp DIR JavaUri INPUT_FILE
 *
 * INPUT_FILE holds one request per line, fields separated by a tab, each
 * field escaped with backslash sequences (\\, \t, \n, \r):
 *
 *     join<TAB>BASE<TAB>REFERENCE  ->  {"ok": new URI(BASE).resolve(new URI(REFERENCE)).toString()}
 *     split<TAB>URL                ->  {"ok": [scheme, rawAuthority, rawPath, rawQuery, rawFragment, opaque, rawSchemeSpecificPart]}
 *
 * One JSON object per request is written to stdout, on its own line and in
 * request order ({"err": "..."} when the URI class throws); null stands for
 * an undefined component. The first line is {"version": "..."}. Output is
 * pure ASCII: every other character is written as a \\uXXXX escape.
 */

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;

public final class JavaUri {
    private JavaUri() {}

    /** Undoes the backslash escaping of one field. */
    static String unescape(String field) {
        if (field.indexOf('\\') < 0) {
            return field;
        }
        StringBuilder sb = new StringBuilder(field.length());
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '\\' && i + 1 < field.length()) {
                char n = field.charAt(++i);
                switch (n) {
                    case 't': sb.append('\t'); break;
                    case 'n': sb.append('\n'); break;
                    case 'r': sb.append('\r'); break;
                    default: sb.append(n);
                }
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** Appends s as a JSON string (or null), escaping everything non-ASCII. */
    static void json(StringBuilder sb, String s) {
        if (s == null) {
            sb.append("null");
            return;
        }
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        sb.append('"');
    }

    /** The answer to one request, as one line of JSON. */
    static String answer(String[] f) {
        StringBuilder sb = new StringBuilder();
        try {
            if (f[0].equals("join")) {
                URI base = new URI(unescape(f[1]));
                URI ref = new URI(f.length > 2 ? unescape(f[2]) : "");
                sb.append("{\"ok\":");
                json(sb, base.resolve(ref).toString());
                sb.append('}');
            } else if (f[0].equals("split")) {
                URI u = new URI(unescape(f[1]));
                sb.append("{\"ok\":[");
                json(sb, u.getScheme());
                sb.append(',');
                json(sb, u.getRawAuthority());
                sb.append(',');
                json(sb, u.getRawPath());
                sb.append(',');
                json(sb, u.getRawQuery());
                sb.append(',');
                json(sb, u.getRawFragment());
                sb.append(',');
                sb.append(u.isOpaque() ? "true" : "false");
                sb.append(',');
                json(sb, u.getRawSchemeSpecificPart());
                sb.append("]}");
            } else {
                sb.append("{\"err\":");
                json(sb, "unknown op " + f[0]);
                sb.append('}');
            }
        } catch (Exception e) {
            sb.setLength(0);
            sb.append("{\"err\":");
            json(sb, e.getClass().getSimpleName() + ": " + e.getMessage());
            sb.append('}');
        }
        return sb.toString();
    }

    /** Answers every request of the input file named by args[0], in order. */
    public static void main(String[] args) throws IOException {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                     new FileInputStream(args[0]), StandardCharsets.UTF_8));
             BufferedWriter out = new BufferedWriter(new OutputStreamWriter(
                     System.out, StandardCharsets.US_ASCII), 1 << 16)) {
            StringBuilder v = new StringBuilder("{\"version\":");
            json(v, System.getProperty("java.version"));
            out.write(v.append('}').toString());
            out.write('\n');
            String line;
            while ((line = in.readLine()) != null) {
                out.write(answer(line.split("\t", -1)));
                out.write('\n');
            }
        }
    }
}
