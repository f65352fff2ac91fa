/*
 * The real implementation of the java profile: java.net.URI's parser (new
 * URI(s)), which java.net.http.HttpClient takes its requests' URIs from.
 *
 * The oracle protocol (README.md): a first line naming the runtime, then,
 * for each line of standard input (a URL as a JSON string), one line of
 * JSON with the components, or the exception thrown.
 *
 * The components, raw (as written, never decoded): getScheme(),
 * getRawUserInfo(), getHost() (null for a registry-based authority),
 * getPort() (null for -1), getRawPath() (for an opaque URI, which has
 * none, getRawSchemeSpecificPart()), getRawQuery(), getRawFragment(). A
 * URISyntaxException's class is "URISyntaxException: " and its reason
 * (getReason()); any other exception's is its type's simple name.
 *
 * Run from its source (java oracles/java.java); with -bench FILE ROUNDS, it
 * parses every line of FILE ROUNDS times, after as many rounds untimed (the
 * JIT compiles the parser), and writes the number of URLs parsed per second
 * (no JSON, no output per URL).
 */

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

public final class JavaUriOracle {
    private JavaUriOracle() {}

    /** Appends s as a JSON string (or null), every non-ASCII char escaped. */
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

    /** The JSON string that is the whole of line, decoded. */
    static String unjson(String line) {
        StringBuilder sb = new StringBuilder(line.length());
        int i = line.indexOf('"') + 1;
        while (i < line.length()) {
            char c = line.charAt(i++);
            if (c == '"') {
                return sb.toString();
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            char e = line.charAt(i++);
            switch (e) {
                case 'b': sb.append('\b'); break;
                case 'f': sb.append('\f'); break;
                case 'n': sb.append('\n'); break;
                case 'r': sb.append('\r'); break;
                case 't': sb.append('\t'); break;
                case 'u':
                    sb.append((char) Integer.parseInt(line.substring(i, i + 4), 16));
                    i += 4;
                    break;
                default: sb.append(e);
            }
        }
        throw new IllegalArgumentException("not a JSON string: " + line);
    }

    static void field(StringBuilder sb, String key, String value) {
        if (sb.length() > 1) {
            sb.append(',');
        }
        json(sb, key);
        sb.append(':');
        json(sb, value);
    }

    static String answer(String s) {
        StringBuilder sb = new StringBuilder("{");
        URI u;
        try {
            u = new URI(s);
        } catch (URISyntaxException e) {
            field(sb, "error", "URISyntaxException: " + e.getReason());
            field(sb, "message", e.getMessage());
            return sb.append('}').toString();
        } catch (RuntimeException e) {
            field(sb, "error", e.getClass().getSimpleName());
            field(sb, "message", e.getMessage());
            return sb.append('}').toString();
        }
        field(sb, "scheme", u.getScheme());
        field(sb, "userinfo", u.getRawUserInfo());
        field(sb, "host", u.getHost());
        field(sb, "port", u.getPort() == -1 ? null : String.valueOf(u.getPort()));
        field(sb, "path", u.isOpaque() ? u.getRawSchemeSpecificPart() : u.getRawPath());
        field(sb, "query", u.getRawQuery());
        field(sb, "fragment", u.getRawFragment());
        return sb.append('}').toString();
    }

    static long round(List<String> lines) {
        long hosts = 0;
        for (String line : lines) {
            try {
                String host = new URI(line).getHost();
                hosts += host == null ? 0 : host.length();
            } catch (URISyntaxException | RuntimeException e) {
                hosts += 0;
            }
        }
        return hosts;
    }

    static void bench(String file, int rounds) throws IOException {
        List<String> lines = Files.readAllLines(Path.of(file), StandardCharsets.UTF_8);
        long hosts = 0;
        for (int r = 0; r < rounds; r++) {
            hosts += round(lines); // untimed: the JIT compiles the parser
        }
        // The CPU time of the process: every thread (the JIT's and the
        // garbage collector's too).
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        long start = System.nanoTime();
        for (int r = 0; r < rounds; r++) {
            hosts += round(lines);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double cpu = (os.getProcessCpuTime() - cpu0) / 1e9;
        double n = (double) lines.size() * rounds;
        System.out.printf("Java %s java.net.URI: %.0f URLs in %.3f s (%.3f s of CPU): %.0f URLs/s, %.0f per CPU second (%d host chars)%n",
                System.getProperty("java.version"), n, seconds, cpu, n / seconds, n / cpu, hosts);
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 3 && args[0].equals("-bench")) {
            bench(args[1], Integer.parseInt(args[2]));
            return;
        }
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                     System.in, StandardCharsets.UTF_8));
             BufferedWriter out = new BufferedWriter(new OutputStreamWriter(
                     System.out, StandardCharsets.US_ASCII), 1 << 16)) {
            StringBuilder hello = new StringBuilder("{");
            field(hello, "runtime", "Java " + System.getProperty("java.runtime.version"));
            field(hello, "library", "java.net.URI");
            out.write(hello.append('}').toString());
            out.write('\n');
            out.flush();
            String line;
            while ((line = in.readLine()) != null) {
                out.write(answer(unjson(line)));
                out.write('\n');
            }
        }
    }
}
