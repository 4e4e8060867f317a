<#ftl output_format="plainText">
<#if (user.firstName)?has_content>${msg("tuberGreeting", user.firstName)}<#else>${msg("tuberGreetingNoName")}</#if>

${msg("tuberVerifyIntro")}

${msg("tuberVerifyLinkText")}
${link}

${msg("tuberVerifyExpiry", linkExpirationFormatter(linkExpiration))}

${msg("tuberVerifyIgnore")}

${msg("tuberSignature")}
