B
reducel2_2J =Ú?ÑÎ+@Kô?