package app.vigie.settings;

import java.util.List;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;

/**
 * The provider as the environment describes it: its identity ({@code VIGIE_PROVIDER_NAME}...), the default until an
 * administrator saves the settings page; its country and regimes, which the compliance rules read.
 */
@ConfigMapping(prefix = "vigie.provider")
public interface ProviderConfig {

    Optional<String> legalName();

    Optional<String> address();

    Optional<String> dpoName();

    Optional<String> dpoEmail();

    Optional<String> contact();

    Optional<String> registration();

    /** The provider's country (ISO 3166-1 alpha-2): its authority and national rules. */
    String country();

    /** The regimes the provider is subject to itself (nis2...). */
    Optional<List<String>> regimes();
}
