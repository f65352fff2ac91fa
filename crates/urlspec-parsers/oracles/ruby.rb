# The real implementation of the ruby profile: URI.parse of the uri
# library Ruby bundles (URI::RFC3986_Parser, then the class of the scheme:
# URI::HTTP, URI::FTP, URI::File, URI::MailTo, ...).
#
# The oracle protocol (README.md): a first line naming the runtime, then,
# for each line of standard input (a URL as a JSON string), one line of
# JSON with the components, or the error raised (its class). The host is
# URI#host (an IPv6 address in its brackets), the port URI#port (the
# scheme's default port when the URL names none), the path URI#path (nil
# for an opaque URI such as mailto:a@b).

require 'json'
require 'uri'

def answer(input)
  u = URI.parse(input)
  {
    scheme: u.scheme,
    userinfo: u.userinfo,
    host: u.host,
    port: u.port&.to_s,
    path: u.path,
    query: u.query,
    fragment: u.fragment,
  }
rescue URI::Error => e
  { error: e.class.name, message: e.message }
end

# ruby oracles/ruby.rb --bench FILE [ROUNDS]: URI.parse over every line of
# FILE, ROUNDS times, timed without reading or JSON; one line of JSON with
# the URLs parsed and the URLs a second.
if ARGV[0] == '--bench'
  urls = File.readlines(ARGV[1], chomp: true)
  rounds = (ARGV[2] || 1).to_i
  parsed = 0
  start = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  rounds.times do
    urls.each do |u|
      URI.parse(u)
      parsed += 1
    rescue URI::Error
      # A refusal is an answer too.
    end
  end
  seconds = Process.clock_gettime(Process::CLOCK_MONOTONIC) - start
  n = urls.size * rounds
  puts JSON.generate(runtime: "Ruby #{RUBY_VERSION}", urls: n, parsed: parsed,
                     seconds: seconds.round(3), urls_per_second: (n / seconds).round)
  exit
end

$stdout.binmode
$stdout.write(JSON.generate(runtime: "Ruby #{RUBY_VERSION}", library: "uri #{URI::VERSION}") + "\n")
$stdout.flush
$stdin.each_line do |line|
  $stdout.write(JSON.generate(answer(JSON.parse(line))) + "\n")
end
$stdout.flush
