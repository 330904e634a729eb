package app.vigie.compliance.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import app.vigie.compliance.rules.InvalidRules;

/** The start-up checks of the rules and of the provider's configuration, outside Quarkus. */
class ComplianceRulesTest {
    private static final List<Duration> STEPS = List.of(Duration.ofHours(24), Duration.ZERO);

    @Test
    void theShippedRulesLoadWithAStableVersion() {
        ComplianceRules a = new ComplianceRules(Optional.of("compliance-rules"), "FR", Optional.of(List.of("nis2")),
                STEPS);
        ComplianceRules b = new ComplianceRules(Optional.of("compliance-rules"), "DE", Optional.empty(), STEPS);
        assertThat(a.version()).hasSize(12).isEqualTo(b.version());
        assertThat(a.provider().regimes()).containsExactly("nis2");
        assertThat(b.provider().regimes()).isEmpty();
    }

    @Test
    void aBadProviderConfigurationOrRulesDirectoryStopsTheStart(@TempDir Path tmp) throws Exception {
        assertThatThrownBy(() -> new ComplianceRules(Optional.of("compliance-rules"), "France", Optional.empty(),
                STEPS)).hasMessageContaining("vigie.provider.country").hasMessageContaining("'France'");
        assertThatThrownBy(() -> new ComplianceRules(Optional.of("compliance-rules"), "FR",
                Optional.of(List.of("nis3")), STEPS)).hasMessageContaining("'nis3'").hasMessageContaining("nis2");
        assertThatThrownBy(() -> new ComplianceRules(Optional.of(tmp.resolve("none").toString()), "FR",
                Optional.empty(), STEPS)).isInstanceOf(InvalidRules.class).hasMessageContaining("not a directory");
        Files.writeString(tmp.resolve("gdpr.yaml"), "id: gdpr\n");
        assertThatThrownBy(() -> new ComplianceRules(Optional.of(tmp.toString()), "FR", Optional.empty(), STEPS))
                .isInstanceOf(InvalidRules.class).hasMessageContaining("authorities.yaml");
        assertThatThrownBy(() -> new ComplianceRules(Optional.of("compliance-rules"), "FR", Optional.empty(),
                List.of(Duration.ofHours(-1)))).hasMessageContaining("before a deadline");
    }
}
