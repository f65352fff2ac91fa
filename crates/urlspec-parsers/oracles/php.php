<?php
/*
 * The real implementation of the php profile: PHP's parse_url
 * (ext/standard/url.c, php_url_parse_ex2).
 *
 * The oracle protocol (README.md): a first line naming the runtime, then,
 * for each line of standard input (a URL as a JSON string), one line of
 * JSON with the components, or {"error": "false"} where parse_url returns
 * false. The user information is parse_url's user, and ":" and its pass
 * when it gives one; the port is its integer in decimal.
 */

const JSON_FLAGS = JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE;

function answer(string $url): array
{
    $u = parse_url($url);
    if ($u === false) {
        return ["error" => "false", "message" => "parse_url returned false"];
    }
    $userinfo = null;
    if (isset($u["user"])) {
        $userinfo = $u["user"] . (isset($u["pass"]) ? ":" . $u["pass"] : "");
    }
    return [
        "scheme" => $u["scheme"] ?? null,
        "userinfo" => $userinfo,
        "host" => $u["host"] ?? null,
        "port" => isset($u["port"]) ? (string) $u["port"] : null,
        "path" => $u["path"] ?? null,
        "query" => $u["query"] ?? null,
        "fragment" => $u["fragment"] ?? null,
    ];
}

/*
 * php oracles/php.php --bench FILE [ROUNDS]: parse_url over every line of
 * FILE, ROUNDS times, timed without reading or JSON; one line of JSON
 * with the URLs parsed and the URLs a second.
 */
if (($argv[1] ?? null) === "--bench") {
    $urls = file($argv[2], FILE_IGNORE_NEW_LINES);
    $rounds = (int) ($argv[3] ?? 1);
    $parsed = 0;
    $start = hrtime(true);
    for ($r = 0; $r < $rounds; $r++) {
        foreach ($urls as $url) {
            if (parse_url($url) !== false) {
                $parsed++;
            }
        }
    }
    $seconds = (hrtime(true) - $start) / 1e9;
    $n = count($urls) * $rounds;
    echo json_encode(["runtime" => "PHP " . PHP_VERSION, "urls" => $n, "parsed" => $parsed,
        "seconds" => round($seconds, 3), "urls_per_second" => round($n / $seconds)]), "\n";
    exit(0);
}

$out = fopen("php://stdout", "w");
fwrite($out, json_encode(["runtime" => "PHP " . PHP_VERSION, "library" => "parse_url"], JSON_FLAGS) . "\n");
fflush($out);
$in = fopen("php://stdin", "r");
while (($line = fgets($in)) !== false) {
    fwrite($out, json_encode(answer(json_decode($line)), JSON_FLAGS) . "\n");
}
fflush($out);
