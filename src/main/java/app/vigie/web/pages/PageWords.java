package app.vigie.web.pages;

import io.quarkus.qute.i18n.Localized;
import io.quarkus.qute.i18n.MessageBundles;

/** The pages' words ({@link PageMessages}) where Java composes them: an error to show, a label to store. */
public final class PageWords {
    private PageWords() {
    }

    /** The words of {@code language} (fr or en), for a page's Java side (an error, a label it composes). */
    public static PageMessages of(String language) {
        return MessageBundles.get(PageMessages.class, Localized.Literal.of("fr".equals(language) ? "fr" : "en"));
    }

    /** The cockpit's words ({@link CockpitMessages}) of {@code language} (fr or en). */
    public static CockpitMessages cockpit(String language) {
        return MessageBundles.get(CockpitMessages.class, Localized.Literal.of("fr".equals(language) ? "fr" : "en"));
    }

    /** The label of a data category (identity, contact, ...); null for a code not offered. */
    public static String category(PageMessages words, String code) {
        return switch (code) {
            case "identity" -> words.category_identity();
            case "contact" -> words.category_contact();
            case "identifiers" -> words.category_identifiers();
            case "financial" -> words.category_financial();
            case "location" -> words.category_location();
            case "behaviour" -> words.category_behaviour();
            case "communications" -> words.category_communications();
            case "professional" -> words.category_professional();
            default -> null;
        };
    }

    /** The label of a special category of personal data (GDPR Art. 9 and 10); null for a code not offered. */
    public static String special(PageMessages words, String code) {
        return switch (code) {
            case "biometric" -> words.special_biometric();
            case "criminal_convictions" -> words.special_criminal_convictions();
            case "genetic" -> words.special_genetic();
            case "health" -> words.special_health();
            case "political_opinions" -> words.special_political_opinions();
            case "racial_or_ethnic_origin" -> words.special_racial_or_ethnic_origin();
            case "religious_or_philosophical_beliefs" -> words.special_religious_or_philosophical_beliefs();
            case "sex_life_or_orientation" -> words.special_sex_life_or_orientation();
            case "trade_union_membership" -> words.special_trade_union_membership();
            default -> null;
        };
    }
}
