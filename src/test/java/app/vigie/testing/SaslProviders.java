package app.vigie.testing;

import java.security.Provider;
import java.security.Security;
import java.util.List;

import org.apache.kafka.common.security.plain.internals.PlainSaslServerProvider;
import org.apache.kafka.common.security.scram.internals.ScramSaslClientProvider;
import org.apache.kafka.common.security.scram.internals.ScramSaslServerProvider;

/**
 * Kafka's SASL mechanisms are JVM-wide security providers, registered once by name by the first class loader that
 * loads Kafka: a Quarkus test's application (its own class loader) would leave its providers to every later test of
 * the JVM, whose brokers and clients then fail every SASL handshake (a factory of another class loader). A test that
 * starts a SASL broker calls {@link #ours()} first.
 */
public final class SaslProviders {
    private static final List<String> NAMES = List.of("SASL/SCRAM Server Provider", "SASL/SCRAM Client Provider",
            "Simple SASL/PLAIN Server Provider");

    private SaslProviders() {
    }

    /** Replaces the SASL providers another class loader registered with this class loader's. */
    public static synchronized void ours() {
        for (String name : NAMES) {
            Provider p = Security.getProvider(name);
            if (p != null && p.getClass().getClassLoader() != SaslProviders.class.getClassLoader()) {
                Security.removeProvider(name);
            }
        }
        ScramSaslServerProvider.initialize();
        ScramSaslClientProvider.initialize();
        PlainSaslServerProvider.initialize();
    }
}
