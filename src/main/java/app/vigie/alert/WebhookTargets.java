package app.vigie.alert;

import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Where a webhook may be sent. A tenant's target is a URL someone typed: resolved, every address it resolves to is
 * checked, and the connection then goes to the checked address only (a name that resolves elsewhere a moment later,
 * DNS rebinding, changes nothing). Refused unless an allowed network holds them: loopback, link-local (169.254.0.0/16
 * and fe80::/10, where cloud metadata services answer), private (10/8, 172.16/12, 192.168/16, fc00::/7), shared
 * (100.64/10), unspecified, multicast and reserved addresses, and the IPv6 forms that carry an IPv4 address
 * (IPv4-compatible ::/96, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, Teredo 2001::/32, 6to4 2002::/16). In production
 * mode the URL must be https unless plain http is allowed.
 */
public final class WebhookTargets {
    /** A target checked: the URL and the address to connect to. */
    public record Checked(URI uri, String host, int port, boolean tls, InetAddress address) {
    }

    /** Why a target is refused (its message names the setting that would open it). */
    public static final class Refused extends Exception {
        Refused(String message) {
            super(message);
        }
    }

    /** A resolver, so that a test can play DNS. */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    private static final String[] BLOCKED = {"0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8",
        "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24", "192.168.0.0/16", "198.18.0.0/15",
        "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4", "::/96", "::1/128", "64:ff9b::/96",
        "64:ff9b:1::/48", "100::/64", "2001::/32", "2001:db8::/32", "2002::/16", "fc00::/7", "fe80::/10",
        "ff00::/8"};
    private static final List<Network> BLOCKED_NETWORKS = parse(List.of(BLOCKED));
    /** An IPv4 address written out as four decimal numbers without leading zeros (parsed, never looked up). */
    private static final Pattern IPV4 = Pattern.compile("(0|[1-9][0-9]{0,2})(\\.(0|[1-9][0-9]{0,2})){3}");
    /** A host made of numbers only (decimal, octal, hexadecimal), however many: an address in some form. */
    private static final Pattern NUMERIC = Pattern.compile("(0x[0-9a-f]*|[0-9]+)(\\.(0x[0-9a-f]*|[0-9]+))*");

    private final List<Network> allowed;
    private final boolean requireHttps;
    private final Resolver resolver;

    public WebhookTargets(List<String> allowedNetworks, boolean requireHttps, Resolver resolver) {
        this.allowed = parse(allowedNetworks);
        this.requireHttps = requireHttps;
        this.resolver = resolver;
    }

    public WebhookTargets(List<String> allowedNetworks, boolean requireHttps) {
        this(allowedNetworks, requireHttps, InetAddress::getAllByName);
    }

    /**
     * Whether a target typed into the directory can ever be delivered, without asking DNS: its form, https in
     * production mode, and, when its host is an address written out or {@code localhost}, that address. A name is
     * checked again, resolved, at each delivery ({@link #check}): what it resolves to may change.
     */
    public void checkSaved(String url) throws Refused {
        URI uri = form(url);
        String host = uri.getHost();
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        String lower = host.toLowerCase(Locale.ROOT);
        String bare = lower.endsWith(".") ? lower.substring(0, lower.length() - 1) : lower;  // "localhost." too
        InetAddress literal;
        try {
            if (bare.equals("localhost") || bare.endsWith(".localhost")) {
                literal = InetAddress.getByName("127.0.0.1");
            } else if (IPV4.matcher(bare).matches() || bare.contains(":")) {
                literal = InetAddress.getByName(bare);  // a literal: parsed, not looked up
            } else if (NUMERIC.matcher(bare).matches()) {
                // 0177.0.0.1, 0x7f.1, 2130706433: resolvers read these as addresses, each its own way
                throw new Refused("the target's host " + host + " is an address written in an unusual form "
                        + "(octal, hexadecimal or one number): write it as four decimal numbers, or use a name");
            } else {
                return;
            }
        } catch (UnknownHostException e) {
            throw new Refused("the target's host " + host + " is not an address");
        }
        if (!permitted(literal)) {
            throw new Refused("the target's host " + host + " is " + literal.getHostAddress()
                    + ", a loopback, link-local, private or reserved address, where no alert is ever sent "
                    + "(vigie.alerts.webhook.allowed-networks opens a network)");
        }
    }

    /** The URL's form: http(s), a host, no credentials, https in production mode. */
    private URI form(String url) throws Refused {
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new Refused("the target is not a URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("https") && !scheme.equals("http") || uri.getHost() == null) {
            throw new Refused("the target must be an http(s) URL");
        }
        if (uri.getUserInfo() != null) {
            throw new Refused("the target must not carry credentials in its URL");
        }
        if (!scheme.equals("https") && requireHttps) {
            throw new Refused("the target must be https in production mode (vigie.alerts.webhook.allow-http opens "
                    + "plain http)");
        }
        return uri;
    }

    /** The target to connect to, or why not. */
    public Checked check(String url) throws Refused {
        URI uri = form(url);
        boolean tls = "https".equalsIgnoreCase(uri.getScheme());
        String host = uri.getHost();
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        InetAddress[] addresses;
        try {
            addresses = resolver.resolve(host);
        } catch (UnknownHostException e) {
            throw new Refused("the target's host " + host + " does not resolve");
        }
        if (addresses == null || addresses.length == 0) {
            throw new Refused("the target's host " + host + " does not resolve");
        }
        for (InetAddress a : addresses) {
            if (!permitted(a)) {
                throw new Refused("the target's host " + host + " resolves to " + a.getHostAddress()
                        + ", a loopback, link-local, private or reserved address (vigie.alerts.webhook."
                        + "allowed-networks opens a network)");
            }
        }
        int port = uri.getPort() > 0 ? uri.getPort() : tls ? 443 : 80;
        return new Checked(uri, host, port, tls, addresses[0]);
    }

    boolean permitted(InetAddress a) {
        for (Network n : allowed) {
            if (n.contains(a)) {
                return true;
            }
        }
        for (Network n : BLOCKED_NETWORKS) {
            if (n.contains(a)) {
                return false;
            }
        }
        return !(a.isAnyLocalAddress() || a.isLoopbackAddress() || a.isLinkLocalAddress() || a.isSiteLocalAddress()
                || a.isMulticastAddress());
    }

    private static List<Network> parse(List<String> cidrs) {
        List<Network> out = new ArrayList<>();
        for (String c : cidrs == null ? List.<String>of() : cidrs) {
            if (c != null && !c.isBlank()) {
                out.add(Network.of(c.strip()));
            }
        }
        return out;
    }

    /** A CIDR block. IPv4-mapped IPv6 addresses are IPv4 addresses here (the JDK parses them so). */
    record Network(BigInteger base, int bits, int length) {
        static Network of(String cidr) {
            int slash = cidr.indexOf('/');
            String ip = slash < 0 ? cidr : cidr.substring(0, slash);
            InetAddress a;
            try {
                if (!ip.matches("[0-9a-fA-F:.]+")) {
                    throw new IllegalArgumentException("'" + cidr + "' is not a network (CIDR such as 10.0.0.0/8)");
                }
                a = InetAddress.getByName(ip);
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("'" + cidr + "' is not a network (CIDR such as 10.0.0.0/8)");
            }
            int bits = a instanceof Inet4Address ? 32 : 128;
            int length;
            try {
                length = slash < 0 ? bits : Integer.parseInt(cidr.substring(slash + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + cidr + "' is not a network (CIDR such as 10.0.0.0/8)");
            }
            if (length < 0 || length > bits) {
                throw new IllegalArgumentException("'" + cidr + "': the prefix length must be 0 to " + bits);
            }
            return new Network(prefix(new BigInteger(1, a.getAddress()), bits, length), bits, length);
        }

        boolean contains(InetAddress a) {
            int abits = a instanceof Inet6Address ? 128 : 32;
            return abits == bits && prefix(new BigInteger(1, a.getAddress()), bits, length).equals(base);
        }

        private static BigInteger prefix(BigInteger v, int bits, int length) {
            return v.shiftRight(bits - length);
        }
    }
}
