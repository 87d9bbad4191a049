B
identity_1JrÆD¿£¸?J¦?Æ®>9¿Ñ¾‘Q¿