package app.vigie.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.utils.Time;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;

/**
 * compose's Kafka, run in the test JVM: a real broker from deploy/compose/kafka/server.properties and the JAAS lines
 * start.sh adds (on free ports and a given directory instead of compose's), formatted with the admin as start.sh
 * does, then the topics, users and ACLs of setup.sh made as the admin. Its SASL settings are the listener's own (no
 * JVM-wide JAAS file), so it runs beside any other broker of the tests.
 */
public final class ComposeKafka implements AutoCloseable {
    public static final Path KAFKA = Path.of(System.getProperty("vigie.deploy-dir", "deploy")).resolve("compose/kafka");
    public static final String ADMIN = "admin";

    private final KafkaRaftServer server;
    private final int clientPort;
    private final String adminPassword;

    private ComposeKafka(KafkaRaftServer server, int clientPort, String adminPassword) {
        this.server = server;
        this.clientPort = clientPort;
        this.adminPassword = adminPassword;
    }

    /**
     * Starts the broker in {@code dir}, then makes setup.sh's topics, its users with these passwords (user, password,
     * user, password...) and its ACLs.
     */
    public static ComposeKafka start(Path dir, String adminPassword, List<String> usersAndPasswords) throws Exception {
        SaslProviders.ours();
        int clientPort = freePort();
        int controllerPort = freePort();
        // the configuration start.sh writes: server.properties and its JAAS lines with the admin's password
        String conf = Files.readString(KAFKA.resolve("server.properties"))
                .replace("SASL_PLAINTEXT://:9092", "SASL_PLAINTEXT://127.0.0.1:" + clientPort)
                .replace("SASL_PLAINTEXT://kafka:9092", "SASL_PLAINTEXT://127.0.0.1:" + clientPort)
                .replace("127.0.0.1:9093", "127.0.0.1:" + controllerPort)
                .replace("log.dirs=/var/lib/kafka/data", "log.dirs=" + dir.resolve("data"));
        Matcher jaas = Pattern.compile("(?m)^\\s*echo \"(listener\\.name\\..*)\"$").matcher(
                Files.readString(KAFKA.resolve("start.sh")));
        int lines = 0;
        while (jaas.find()) {
            conf += "\n" + jaas.group(1).replace("\\\"", "\"").replace("$password", adminPassword);
            lines++;
        }
        assertThat(lines).isEqualTo(2);
        Path file = dir.resolve("server.properties");
        Files.writeString(file, conf);
        Matcher scram = Pattern.compile("--add-scram \"(SCRAM-SHA-512=\\[name=admin,password=)\\$password(])\"")
                .matcher(Files.readString(KAFKA.resolve("start.sh")));
        assertThat(scram.find()).as("start.sh formats with the admin's SCRAM credentials").isTrue();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int formatted = StorageTool.execute(new String[] {"format", "--config", file.toString(), "--cluster-id",
                Uuid.randomUuid().toString(), "--add-scram", scram.group(1) + adminPassword + scram.group(2)},
                new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(formatted).as(out.toString(StandardCharsets.UTF_8)).isZero();
        Properties props = new Properties();
        props.load(new StringReader(conf));
        KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(props), Time.SYSTEM);
        server.startup();
        ComposeKafka kafka = new ComposeKafka(server, clientPort, adminPassword);
        try (Admin admin = Admin.create(kafka.client(ADMIN, adminPassword))) {
            setUp(admin, usersAndPasswords);
        } catch (Exception | AssertionError e) {
            kafka.close();
            throw e;
        }
        return kafka;
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + clientPort;
    }

    /** A client's settings as {@code user} (SCRAM-SHA-512), or without SASL when {@code user} is null. */
    public Properties client(String user, String password) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrapServers());
        if (user != null) {
            p.put("security.protocol", "SASL_PLAINTEXT");
            p.put("sasl.mechanism", "SCRAM-SHA-512");
            p.put("sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                    + user + "\" password=\"" + password + "\";");
        }
        p.put("max.block.ms", "8000");
        p.put("request.timeout.ms", "8000");
        p.put("default.api.timeout.ms", "8000");
        p.put("delivery.timeout.ms", "16000");
        p.put("linger.ms", "0");
        return p;
    }

    /** The admin's settings. */
    public Properties admin() {
        return client(ADMIN, adminPassword);
    }

    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
    }

    /** What setup.sh does as the admin: its topics, its users, its ACLs (read from the script). */
    private static void setUp(Admin admin, List<String> users) throws Exception {
        String setup = Files.readString(KAFKA.resolve("setup.sh"));
        List<NewTopic> topics = new ArrayList<>();
        Matcher t = Pattern.compile("(vigie\\.[\\w.\\-]+):(\\d+)").matcher(setup.substring(0,
                setup.indexOf("; do", setup.indexOf("for t in"))));
        while (t.find()) {
            topics.add(new NewTopic(t.group(1), Integer.parseInt(t.group(2)), (short) 1));
        }
        assertThat(topics).hasSize(3);
        admin.createTopics(topics).all().get(30, TimeUnit.SECONDS);
        List<UserScramCredentialUpsertion> credentials = new ArrayList<>();
        for (int i = 0; i < users.size(); i += 2) {
            assertThat(setup).contains(users.get(i) + ":kafka_");
            credentials.add(new UserScramCredentialUpsertion(users.get(i),
                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), users.get(i + 1)));
        }
        admin.alterUserScramCredentials(List.copyOf(credentials)).all().get(30, TimeUnit.SECONDS);
        List<AclBinding> acls = new ArrayList<>();
        Matcher a = Pattern.compile("(?m)^acl --allow-principal (User:\\S+)((?: --operation \\w+)+) --(topic|group) "
                + "(\\S+)( --resource-pattern-type prefixed)?$").matcher(setup);
        while (a.find()) {
            ResourcePattern resource = new ResourcePattern(a.group(3).equals("topic") ? ResourceType.TOPIC
                    : ResourceType.GROUP, a.group(4), a.group(5) == null ? PatternType.LITERAL : PatternType.PREFIXED);
            for (String op : a.group(2).trim().split("\\s*--operation\\s+")) {
                if (!op.isBlank()) {
                    acls.add(new AclBinding(resource, new AccessControlEntry(a.group(1), "*",
                            AclOperation.fromString(op.trim()), AclPermissionType.ALLOW)));
                }
            }
        }
        assertThat(acls).hasSize(11);
        admin.createAcls(acls).all().get(30, TimeUnit.SECONDS);
        Thread.sleep(1000); // the credentials and ACLs reach the broker through its metadata
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
