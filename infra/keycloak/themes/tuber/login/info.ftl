<#-- Keycloak's information page. Three cases of the product: the e-mail verification link asks to confirm
     (Continue), then reports the address verified with one button that continues into the product (its
     /login opens the login page at once, so the next screen is the password); anything else keeps
     Keycloak's behaviour, with buttons in the product's style. -->
<#import "template.ftl" as layout>
<#assign appUrl = ((client.baseUrl)!'')?remove_ending('/')>
<#assign summary = (message.summary)!''>
<#assign confirming = (actionUri!'')?has_content && !(requiredActions??)>
<#-- Verified: Keycloak's "Your email address has been verified." (its own link opened in another browser),
     or the end of the auth service's link ("Your account has been updated.", with or without the address
     the link was sent with): the product asks Keycloak for no other action that ends here. -->
<#assign verified = !confirming && !(requiredActions??) && (summary == msg("emailVerifiedMessage") || summary == msg("accountUpdatedMessage")
    || (((message.type)!'') == 'success' && (pageRedirectUri!'')?has_content))>
<@layout.registrationLayout displayMessage=false; section>
    <#if section = "header">
        <#if verified>
            ${msg("tuberEmailVerifiedTitle")}
        <#elseif confirming>
            ${msg("tuberConfirmEmailTitle")}
        <#elseif messageHeader??>
            ${kcSanitize(msg("${messageHeader}"))?no_esc}
        <#else>
            ${msg("tuberInfoTitle")}
        </#if>
    <#elseif section = "form">
    <div id="kc-info-message" class="tuber-stack">
        <#if verified>
            <p class="instruction">${msg("tuberEmailVerifiedMessage")}</p>
            <a id="tuber-continue" class="${properties.kcButtonClass!} ${properties.kcButtonPrimaryClass!} ${properties.kcButtonBlockClass!}" href="${appUrl}/login">${msg("tuberContinueToLogin")}</a>
        <#else>
            <p class="instruction">${kcSanitize(summary)?no_esc}<#if requiredActions??><#list requiredActions>: <b><#items as reqActionItem>${kcSanitize(msg("requiredAction.${reqActionItem}"))?no_esc}<#sep>, </#items></b></#list></#if></p>
            <#if !skipLink??>
                <#if actionUri?has_content>
                    <a id="tuber-proceed" class="${properties.kcButtonClass!} ${properties.kcButtonPrimaryClass!} ${properties.kcButtonBlockClass!}" href="${actionUri}">${msg("proceedWithAction")}</a>
                <#elseif pageRedirectUri?has_content>
                    <a class="${properties.kcButtonClass!} ${properties.kcButtonPrimaryClass!} ${properties.kcButtonBlockClass!}" href="${pageRedirectUri}">${msg("backToApplication")}</a>
                <#elseif (client.baseUrl)?has_content>
                    <a class="${properties.kcButtonClass!} ${properties.kcButtonPrimaryClass!} ${properties.kcButtonBlockClass!}" href="${client.baseUrl}">${msg("backToApplication")}</a>
                </#if>
            </#if>
        </#if>
    </div>
    </#if>
</@layout.registrationLayout>
